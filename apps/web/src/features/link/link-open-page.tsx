/** Issue 6 placeholder: replaced by the real screen. */
export function LinkOpenPage() {
  return <h1>オープン会員情報の連携</h1>;
}
