import { Link } from 'react-router';
import { buttonClass } from '../../ui/button.tsx';
import page from '../../ui/page.module.css';

/** Password recovery, finished (SPEC.md section 2, /recover/password/done): log in again from each service. */
export function RecoverPasswordDonePage() {
  return (
    <>
      <h1>パスワードの再設定完了</h1>
      <p className={page.lead}>パスワードを再設定しました。</p>
      <p className={page.lead}>ご利用の各サービスから、新しいパスワードで再度ログインしてください。</p>
      <Link to="/" className={buttonClass()}>
        ログインする
      </Link>
    </>
  );
}
