/** Issue 6 placeholder: replaced by the real screen. */
export function ServiceRedirectPage() {
  return <h1>サービスへ移動</h1>;
}
