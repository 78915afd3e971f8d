import { Link, Navigate } from 'react-router';
import { PRODUCT_NAME } from '@sso/contracts/terms';
import { isLoggedIn } from '../../lib/records.ts';
import { buttonClass } from '../../ui/button.tsx';
import page from '../../ui/page.module.css';

/**
 * Withdrawal, finished (SPEC.md section 2, /user/cancel/done). The withdrawal cleared the tokens,
 * so this page is outside the login guard; a member still logged in has not withdrawn and goes to Top.
 */
export function CancelDonePage() {
  if (isLoggedIn()) return <Navigate to="/top" replace />;
  return (
    <>
      <h1>退会手続きが完了しました</h1>
      <p className={page.lead}>これまで{PRODUCT_NAME}をご利用いただき、ありがとうございました。</p>
      <Link to="/" className={buttonClass()}>
        ログイン画面へ
      </Link>
    </>
  );
}
