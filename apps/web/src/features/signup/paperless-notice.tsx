import styles from './signup.module.css';

/**
 * The paperless notice of the card sign-up (SPEC.md sections 2 and 9): notices are electronic, a
 * notice counts as delivered once the e-mail is sent to the registered address, and paper documents
 * can be requested for 3 months after an electronic notice.
 */
export function PaperlessNotice() {
  return (
    <div className={styles.notice}>
      <h2>書面の電子交付（ペーパーレス）について</h2>
      <p>メンバーIDにご登録いただくと、カードのご利用代金明細書などの書面によるお知らせは、郵送に代えて電子交付となります。</p>
      <p>電子交付によるお知らせは、ご登録のメールアドレスへ電子メールでお送りします。当社がご登録のメールアドレスへ電子メールを送信した時点で、お知らせが到達したものとみなします。</p>
      <p>電子交付によるお知らせの日から3か月以内であれば、書面での交付をご請求いただけます。</p>
    </div>
  );
}
