import { useEffect, useState } from 'react';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router';
import { LIMITS } from '@sso/contracts/constants';
import { TEXTS } from '@sso/contracts/messages';
import type { OpenSignupResponse } from '@sso/contracts/open-signup';
import { showFailure } from '../../lib/failure-view.ts';
import { Alert } from '../../ui/alert.tsx';
import { buttonClass } from '../../ui/button.tsx';
import { useDelayed } from '../../ui/use-delayed.ts';
import page from '../../ui/page.module.css';
import { activateOpenSignup } from './open-signup-api.ts';
import { holdDone } from './open-signup-store.ts';

/**
 * Activations by token: a token is single use, so a second effect run (StrictMode) or a remount
 * waits for the request in flight (or takes its answer) instead of sending the token again.
 */
const activations = new Map<string, Promise<OpenSignupResponse>>();
const activation = (token: string) => {
  let p = activations.get(token);
  if (!p) {
    p = activateOpenSignup(token);
    activations.set(token, p);
    // A failure is not kept: coming back to the link tries again.
    void p.catch(() => activations.delete(token));
  }
  return p;
};

/**
 * Open sign-up activation (SPEC.md sections 2 and 4): the mail's link. Without onetime_token it goes
 * to Welcome; otherwise it activates at once and goes to the finish page with the services to
 * return to. A link that expired, was used or was replaced (902) shows the message and a way back
 * to the sign-up.
 */
export function OpenSignupActivatePage() {
  const [search] = useSearchParams();
  const navigate = useNavigate();
  const token = search.get('onetime_token');
  const [message, setMessage] = useState<string>();
  const showLoading = useDelayed(message === undefined ? true : undefined, LIMITS.loadingTextDelayMs);

  useEffect(() => {
    if (!token) return;
    let live = true;
    activation(token).then(
      (res) => {
        if (!live) return;
        holdDone(res);
        void navigate('/signup/open/done', { replace: true });
      },
      (e: unknown) => {
        if (live) showFailure(e, { setMessage });
      },
    );
    return () => {
      live = false;
    };
  }, [token, navigate]);

  if (!token) return <Navigate to="/" replace />;

  return (
    <>
      <h1>本登録</h1>
      {message === undefined ? (
        showLoading && <p>{TEXTS.loading}</p>
      ) : (
        <>
          <Alert message={message} />
          <p className={page.lead}>新規登録の画面から、もう一度ご登録いただけます。</p>
          <Link to="/signup/open" className={buttonClass()}>
            新規登録をやり直す
          </Link>
        </>
      )}
    </>
  );
}
