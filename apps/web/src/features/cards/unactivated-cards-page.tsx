/** Issue 6 placeholder: replaced by the real screen. */
export function UnactivatedCardsPage() {
  return <h1>有効化が必要なカード</h1>;
}
