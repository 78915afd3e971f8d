import { useCallback, useState } from 'react';
import { Link, Navigate, useSearchParams } from 'react-router';
import { NOT_ME_SCREEN_TEXTS as T } from '@sso/contracts/not-me-screen';
import { RESULT } from '@sso/contracts/result-codes';
import { showFailure } from '../../lib/failure-view.ts';
import { clearTokens } from '../../lib/records.ts';
import { usePendingAction, type ActionOutcome } from '../../lib/use-pending-action.ts';
import { Alert } from '../../ui/alert.tsx';
import { Button, buttonClass } from '../../ui/button.tsx';
import page from '../../ui/page.module.css';
import { reportNotMe } from './not-me-api.ts';

/**
 * The "not me" link of a notice mail (/not-me?token=…, docs/decisions/0033-not-me-link.md): what
 * will happen, then 「すべての端末でログアウトする」. Opening the page does nothing. Done, every
 * session of the member has ended, this browser's too, and a reset mail is on its way; a link that
 * expired or was used (902) shows the server's message and nothing of the member. Without a token it
 * goes to Welcome, as /passkey/revoke does.
 */
export function NotMePage() {
  const [search] = useSearchParams();
  const token = search.get('token');
  const [result, setResult] = useState<'done' | 'linkInvalid'>();
  const [message, setMessage] = useState<string>();

  const confirm = useCallback(async (): Promise<ActionOutcome> => {
    if (!token) return;
    setMessage(undefined);
    try {
      await reportNotMe(token);
    } catch (e) {
      if (showFailure(e, { setMessage }).result_code === RESULT.RETRYABLE) setResult('linkInvalid');
      return;
    }
    // The server ended every session of the member: the tokens this browser holds are dead.
    clearTokens();
    setResult('done');
  }, [token]);
  const { pending, run } = usePendingAction(confirm);

  if (!token) return <Navigate to="/" replace />;

  const toTop = (
    <Link to="/" className={buttonClass()}>
      トップへ戻る
    </Link>
  );
  return (
    <>
      <h1>{T.title}</h1>
      {result === 'done' ? (
        <>
          <p role="status" className={page.lead}>
            {T.done}
          </p>
          {toTop}
        </>
      ) : result === 'linkInvalid' ? (
        <>
          <Alert message={message} />
          {toTop}
        </>
      ) : (
        <>
          <p className={page.lead}>{T.lead}</p>
          <ol>
            {T.steps.map((step) => (
              <li key={step}>{step}</li>
            ))}
          </ol>
          <p className={page.lead}>{T.hint}</p>
          <Alert message={message} />
          <Button type="button" pending={pending} onClick={() => void run()}>
            {T.button}
          </Button>
        </>
      )}
    </>
  );
}
