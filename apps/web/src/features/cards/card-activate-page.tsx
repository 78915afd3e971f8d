/** Issue 6 placeholder: replaced by the real screen. */
export function CardActivatePage() {
  return <h1>カードの有効化</h1>;
}
