/** Issue 6 placeholder: replaced by the real screen. */
export function DirectCallbackPage() {
  return <h1>ログイン中</h1>;
}
