import { useState } from 'react';
import { Link, Navigate } from 'react-router';
import { SERVICE_MESSAGES } from '@sso/contracts/messages';
import { PRODUCT_NAME } from '@sso/contracts/terms';
import { buttonClass } from '../../ui/button.tsx';
import page from '../../ui/page.module.css';
import { cardholdersOnlyServices, doneChoice } from './done-links.ts';
import { getHeldOpenSignup } from './open-signup-store.ts';
import styles from './open-signup.module.css';
import { Steps } from '../../ui/steps.tsx';
import { OPEN_SIGNUP_STEPS } from './open-signup-steps.ts';

/**
 * Open sign-up finish (SPEC.md section 2): the member exists. No service: a button to log in; one:
 * a way back to it; several: the list. A cardholders-only service of the sign-up (SPEC.md section
 * 6) is not offered to the new open member: a notice says so and how to add a card. Without a held
 * activation answer it goes to Welcome.
 */
export function OpenSignupDonePage() {
  const [held] = useState(() => getHeldOpenSignup('done'));
  if (!held) return <Navigate to="/" replace />;
  const choice = doneChoice(held.links);
  const withheld = cardholdersOnlyServices(held.links);
  return (
    <>
      <h1>登録完了</h1>
      <Steps labels={OPEN_SIGNUP_STEPS} current={4} />
      <p className={page.lead}>
        {PRODUCT_NAME}の登録が完了しました。ログインIDは、ご登録のメールアドレス<span className={page.emphasis}>（{held.email}）</span>です。
      </p>
      {withheld.length > 0 && (
        <div role="note" className={page.lead}>
          <p className={page.emphasis}>{SERVICE_MESSAGES.openSignupNoLineAccount}</p>
          <p>{SERVICE_MESSAGES.addCardFromTop}</p>
        </div>
      )}
      {choice.kind === 'login' && (
        <>
          <p className={page.lead}>ログインしてご利用ください。</p>
          <Link to="/" className={buttonClass()}>
            ログインする
          </Link>
        </>
      )}
      {choice.kind === 'one' && (
        <>
          <p className={page.lead}>サービスに戻って、ログインしてご利用ください。</p>
          <Link to={choice.link.to} className={buttonClass()}>
            {choice.link.label}
          </Link>
        </>
      )}
      {choice.kind === 'list' && (
        <>
          <p className={page.lead}>ご利用になるサービスを選んで、ログインしてください。</p>
          <ul className={styles.services}>
            {choice.links.map((l) => (
              <li key={l.clientId}>
                <Link to={l.to} className={buttonClass('secondary')}>
                  {l.label}
                </Link>
              </li>
            ))}
          </ul>
        </>
      )}
    </>
  );
}
