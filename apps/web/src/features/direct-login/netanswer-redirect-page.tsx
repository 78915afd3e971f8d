/** Issue 6 placeholder: replaced by the real screen. */
export function NetAnswerRedirectPage() {
  return <h1>Net Answer</h1>;
}
