import { Link } from 'react-router';
import { LIMITS } from '@sso/contracts/constants';
import { LINKS } from '../../lib/links.ts';
import { ExternalLink } from '../../ui/external-link.tsx';
import page from '../../ui/page.module.css';

/**
 * Password recovery, mail sent (SPEC.md section 2, /recover/mail/sent): the mail was sent, and mail
 * is only sent to registered addresses. It names no address: the answer never says which exist.
 */
export function RecoverMailSentPage() {
  return (
    <>
      <h1>メールを送信しました</h1>
      <p className={page.lead}>
        パスワード再設定のご案内メールを送信しました。メールに記載されたURLを開いて、新しいパスワードを設定してください。URLの有効期限は{LIMITS.passwordResetValidMinutes}分です。
      </p>
      <p className={page.lead}>※メールは、ご登録済みのメールアドレスの場合のみ送信されます。</p>
      <p className={page.help}>
        <ExternalLink href={LINKS.mailNotReceived}>メールが届かない場合</ExternalLink>
      </p>
      <p className={page.help}>
        <Link to="/">ログイン画面に戻る</Link>
      </p>
    </>
  );
}
