/** Issue 6 placeholder: replaced by the real screen. */
export function TransferSummaryPage() {
  return <h1>ポイント移行</h1>;
}
