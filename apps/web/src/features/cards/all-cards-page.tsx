/** Issue 6 placeholder: replaced by the real screen. */
export function AllCardsPage() {
  return <h1>カード一覧</h1>;
}
