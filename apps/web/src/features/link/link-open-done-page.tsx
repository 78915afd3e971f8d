/** Issue 6 placeholder: replaced by the real screen. */
export function LinkOpenDonePage() {
  return <h1>連携完了</h1>;
}
