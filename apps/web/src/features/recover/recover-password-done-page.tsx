import { Link, useLocation, useSearchParams } from 'react-router';
import { buttonClass } from '../../ui/button.tsx';
import page from '../../ui/page.module.css';
import { ResetPasskeys, reviewTokenOf } from './reset-passkeys.tsx';

/**
 * Password recovery, finished (SPEC.md section 2, /recover/password/done): log in again from each
 * service. The passkeys added in the 30 days before the reset are listed, with the action that
 * removes them (decision 0024): by the reset answer's secret, in the history state, or by the
 * confirmation mail's link (`?token=`).
 */
export function RecoverPasswordDonePage() {
  const location = useLocation();
  const [search] = useSearchParams();
  const token = reviewTokenOf(location.state) ?? search.get('token');
  return (
    <>
      <h1>パスワードの再設定完了</h1>
      <p className={page.lead}>パスワードを再設定しました。</p>
      {token ? <ResetPasskeys token={token} /> : null}
      <p className={page.lead}>ご利用の各サービスから、新しいパスワードで再度ログインしてください。</p>
      <Link to="/" className={buttonClass()}>
        ログインする
      </Link>
    </>
  );
}
