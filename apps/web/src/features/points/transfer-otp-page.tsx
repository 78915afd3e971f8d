/** Issue 6 placeholder: replaced by the real screen. */
export function TransferOtpPage() {
  return <h1>ワンタイムパスワード</h1>;
}
