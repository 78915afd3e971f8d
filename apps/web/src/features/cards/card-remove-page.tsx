/** Issue 6 placeholder: replaced by the real screen. */
export function CardRemovePage() {
  return <h1>カードの削除</h1>;
}
