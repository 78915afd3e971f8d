import { useState } from 'react';
import { Navigate } from 'react-router';
import { LIMITS } from '@sso/contracts/constants';
import { LINKS } from '../../lib/links.ts';
import { ExternalLink } from '../../ui/external-link.tsx';
import page from '../../ui/page.module.css';
import { getHeldOpenSignup } from './open-signup-store.ts';
import { Steps } from '../../ui/steps.tsx';
import { OPEN_SIGNUP_STEPS } from './open-signup-steps.ts';

/**
 * Open sign-up sent (SPEC.md sections 2 and 9): the activation mail went to the address entered, and
 * the provisional registration is valid for 60 minutes; a help link for mail not received. Without a
 * held register answer it goes to the open sign-up.
 */
export function OpenSignupSentPage() {
  const [held] = useState(() => getHeldOpenSignup('sent'));
  if (!held) return <Navigate to="/signup/open" replace />;
  return (
    <>
      <h1>仮登録メールを送信しました</h1>
      <Steps labels={OPEN_SIGNUP_STEPS} current={3} />
      <p className={page.lead}>
        ご入力のメールアドレス<span className={page.emphasis}>（{held.email}）</span>
        宛てに、本登録のご案内メールを送信しました。メールに記載されたURLを開いて、本登録を完了してください。
      </p>
      <p className={page.lead}>
        仮登録の有効期限は{LIMITS.openSignupValidMinutes}分です。有効期限を過ぎた場合は、お手数ですが最初から登録をやり直してください。
      </p>
      <p className={page.help}>
        <ExternalLink href={LINKS.mailNotReceived}>メールが届かない場合</ExternalLink>
      </p>
    </>
  );
}
