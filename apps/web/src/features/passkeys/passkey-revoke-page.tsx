import { useCallback, useState } from 'react';
import { Link, Navigate, useSearchParams } from 'react-router';
import { PASSKEY_MESSAGES as M } from '@sso/contracts/messages';
import { PASSKEY_SCREEN_TEXTS as T } from '@sso/contracts/passkey-screens';
import { RESULT } from '@sso/contracts/result-codes';
import { showFailure } from '../../lib/failure-view.ts';
import { clearTokens } from '../../lib/records.ts';
import { Alert } from '../../ui/alert.tsx';
import { Button, buttonClass } from '../../ui/button.tsx';
import page from '../../ui/page.module.css';
import { usePendingAction, type ActionOutcome } from '../../lib/use-pending-action.ts';
import { revokePasskey } from './revoke-api.ts';

/**
 * Disabling a passkey from the "passkey added" mail (/passkey/revoke?token=…, decision 0024): what
 * it does, and 「このパスキーを無効にする」. Done, every session of the member has ended, this
 * browser's too, and the way on is the login; a link that expired or was used (902) shows the
 * server's message. Without a token it goes to Welcome, as /recover/password does (SPEC.md section 2).
 */
export function PasskeyRevokePage() {
  const [search] = useSearchParams();
  const token = search.get('token');
  const [result, setResult] = useState<'revoked' | 'linkInvalid'>();
  const [message, setMessage] = useState<string>();

  const revoke = useCallback(async (): Promise<ActionOutcome> => {
    if (!token) return;
    setMessage(undefined);
    try {
      await revokePasskey(token);
    } catch (e) {
      if (showFailure(e, { setMessage }).result_code === RESULT.RETRYABLE) setResult('linkInvalid');
      return;
    }
    // The server ended every session of the member: the tokens this browser holds are dead.
    clearTokens();
    setResult('revoked');
  }, [token]);
  const { pending, run } = usePendingAction(revoke);

  if (!token) return <Navigate to="/" replace />;

  const toLogin = (
    <Link to="/" className={buttonClass()}>
      ログインする
    </Link>
  );
  return (
    <>
      <h1>パスキーの無効化</h1>
      {result === 'revoked' ? (
        <>
          <p role="status" className={page.lead}>
            {M.revoked}
          </p>
          {toLogin}
        </>
      ) : result === 'linkInvalid' ? (
        <>
          <Alert message={message} />
          {toLogin}
        </>
      ) : (
        <>
          <p className={page.lead}>{T.revokeLead}</p>
          <p className={page.lead}>{T.revokeHint}</p>
          <Alert message={message} />
          <Button type="button" pending={pending} onClick={() => void run()}>
            {T.revokeButton}
          </Button>
        </>
      )}
    </>
  );
}
