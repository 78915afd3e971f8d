/** Issue 6 placeholder: replaced by the real screen. */
export function TransferDonePage() {
  return <h1>ポイント移行完了</h1>;
}
