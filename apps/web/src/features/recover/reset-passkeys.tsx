import { useCallback, useEffect, useState } from 'react';
import type { RecentPasskey } from '@sso/contracts/passkeys';
import { PASSKEY_SCREEN_TEXTS as T } from '@sso/contracts/passkey-screens';
import { showFailure } from '../../lib/failure-view.ts';
import { formatJapanTime, japanIsoTime } from '../../lib/japan-time.ts';
import { clearTokens } from '../../lib/records.ts';
import { Alert } from '../../ui/alert.tsx';
import { Button } from '../../ui/button.tsx';
import page from '../../ui/page.module.css';
import list from '../../ui/stacked-list.module.css';
import { usePendingAction, type ActionOutcome } from '../../lib/use-pending-action.ts';
import { fetchResetPasskeys, removeResetPasskeys } from './recover-api.ts';
import styles from './recover.module.css';

/** The finish page's history state: the reset answer's secret, when passkeys were added shortly before the reset. */
export interface DoneState {
  passkeyReviewToken?: string;
}

/** The secret in a history state, if the state is the reset page's. */
export const reviewTokenOf = (state: unknown): string | undefined => {
  const token = (state as DoneState | null)?.passkeyReviewToken;
  return typeof token === 'string' && token ? token : undefined;
};

/**
 * The passkeys added in the 30 days before a password reset (decision 0024, "After a password
 * reset"), by the secret of the reset's answer or of its confirmation mail's link: their names, when
 * they were added and the device, and one button that removes them all and ends every session. A
 * secret that expired or was used shows the server's message (902); no passkey left, nothing.
 */
export function ResetPasskeys({ token }: { token: string }) {
  // Public routes have no query client (the login route's JavaScript stays small): one read, on mount.
  const [passkeys, setPasskeys] = useState<RecentPasskey[]>([]);
  const [removed, setRemoved] = useState(false);
  const [message, setMessage] = useState<string>();

  useEffect(() => {
    const abort = new AbortController();
    fetchResetPasskeys(token, abort.signal).then(
      (answer) => setPasskeys(answer.passkeys),
      (e: unknown) => {
        if (!abort.signal.aborted) showFailure(e, { setMessage });
      },
    );
    return () => abort.abort();
  }, [token]);

  const remove = useCallback(async (): Promise<ActionOutcome> => {
    setMessage(undefined);
    try {
      await removeResetPasskeys(token);
    } catch (e) {
      showFailure(e, { setMessage });
      return;
    }
    // Every session of the member ended: the tokens this browser holds are dead.
    clearTokens();
    setRemoved(true);
  }, [token]);
  const { pending, run } = usePendingAction(remove);

  if (removed) {
    return (
      <p role="status" className={page.lead}>
        {T.resetRemoved}
      </p>
    );
  }
  if (passkeys.length === 0) return <Alert message={message} />;
  return (
    <section className={page.section} aria-labelledby="reset-passkeys-heading">
      <h2 id="reset-passkeys-heading">{T.resetHeading}</h2>
      <p className={page.lead}>{T.resetLead}</p>
      <ul className={list.list}>
        {passkeys.map((p) => (
          <li key={`${p.created_at} ${p.name}`} className={list.entry}>
            <span className={styles.name}>{p.name}</span>
            <dl className={list.facts}>
              <dt>{T.createdAt}</dt>
              <dd>
                <time dateTime={japanIsoTime(p.created_at)}>{formatJapanTime(p.created_at)}</time>
              </dd>
              <dt>{T.resetDevice}</dt>
              <dd>{p.device ?? T.resetUnknownDevice}</dd>
            </dl>
          </li>
        ))}
      </ul>
      <p className={page.lead}>{T.resetHint}</p>
      <Alert message={message} />
      <div className={styles.action}>
        <Button type="button" pending={pending} onClick={() => void run()}>
          {T.resetRemoveButton}
        </Button>
      </div>
    </section>
  );
}
