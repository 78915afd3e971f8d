/** Issue 6 placeholder: replaced by the real screen. */
export function TransferSelectPage() {
  return <h1>移行先カードの選択</h1>;
}
