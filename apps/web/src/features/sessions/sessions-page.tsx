import { useCallback, useState } from 'react';
import { useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { SESSION_SCREEN_TEXTS as T } from '@sso/contracts/session-screens';
import { showFailure } from '../../lib/failure-view.ts';
import { logOut } from '../../lib/logout.ts';
import { Alert } from '../../ui/alert.tsx';
import { BackToTop } from '../../ui/back-to-top.tsx';
import { Button } from '../../ui/button.tsx';
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx';
import { LoadStatus } from '../../ui/load-status.tsx';
import { StatusNotice } from '../../ui/status-notice.tsx';
import page from '../../ui/page.module.css';
import { usePendingAction, type ActionOutcome } from '../../lib/use-pending-action.ts';
import { SessionItem } from './session-item.tsx';
import { browserFacts, endingText, serviceFacts, type SessionFacts } from './session-view.ts';
import { endAllSessions, endMemberSession, SESSIONS_QUERY_KEY, useSessionsQuery } from './sessions-api.ts';
import styles from './sessions.module.css';

/**
 * The signed-in browsers and services (/user/sessions, docs/decisions/0026-sso-session.md): each
 * browser's SSO session (この端末 for this one) and each service's session, with a ログアウト for
 * each, confirmed first, and when each browser's automatic login ends (SPEC.md section 9). Ending
 * this very browser or session logs this browser out (lib/logout.ts), and so does すべての端末からログアウト,
 * which ends every browser and service of the member at once.
 */
export function SessionsPage() {
  const query = useSessionsQuery();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [message, setMessage] = useState<string>();
  const [notice, setNotice] = useState<string>();
  /** What the confirmation is for: one browser or service, or every one ('all'). */
  const [ending, setEnding] = useState<SessionFacts | 'all'>();

  const end = useCallback(async (): Promise<ActionOutcome> => {
    if (!ending) return;
    setMessage(undefined);
    setNotice(undefined);
    try {
      if (ending === 'all') await endAllSessions();
      else await endMemberSession({ kind: ending.kind, id: ending.id });
      setEnding(undefined);
      if (ending === 'all' || ending.current) {
        await logOut(navigate);
        return 'leaving';
      }
      setNotice(T.ended);
      void queryClient.invalidateQueries({ queryKey: SESSIONS_QUERY_KEY });
    } catch (e) {
      setEnding(undefined);
      showFailure(e, { setMessage });
    }
  }, [ending, navigate, queryClient]);
  const { pending, run } = usePendingAction(end);

  const browsers = query.data?.browsers.map(browserFacts) ?? [];
  const services = query.data?.services.map(serviceFacts) ?? [];
  return (
    <>
      <h1>{T.title}</h1>
      <p className={page.lead}>{T.lead}</p>
      <StatusNotice text={notice} />
      <Alert message={message} />
      <LoadStatus loading={query.isPending} error={query.error} />
      {query.isSuccess && (
        <>
          <SessionList heading={T.browsersHeading} id="browsers-heading" hint={T.browsersHint} empty={T.noBrowsers} entries={browsers} onEnd={setEnding} />
          <SessionList heading={T.servicesHeading} id="services-heading" empty={T.noServices} entries={services} onEnd={setEnding} />
          <div className={page.actions}>
            <Button type="button" variant="secondary" onClick={() => setEnding('all')}>
              {T.endAll}
            </Button>
          </div>
        </>
      )}
      <div className={page.actions}>
        <BackToTop />
      </div>
      <ConfirmDialog
        open={ending !== undefined}
        title={ending === 'all' ? T.endAllTitle : T.endTitle}
        confirmLabel={ending === 'all' ? T.endAll : T.logout}
        pending={pending}
        onConfirm={() => void run()}
        onCancel={() => setEnding(undefined)}
      >
        {ending === 'all' ? (
          <p className={page.dialogText}>{T.endAllText}</p>
        ) : (
          <>
            <p className={page.dialogText}>「{ending?.title}」</p>
            {ending && endingText(ending).map((text) => <p key={text} className={page.dialogText}>{text}</p>)}
          </>
        )}
      </ConfirmDialog>
    </>
  );
}

interface SessionListProps {
  heading: string;
  id: string;
  hint?: string;
  empty: string;
  entries: SessionFacts[];
  onEnd: (facts: SessionFacts) => void;
}

function SessionList({ heading, id, hint, empty, entries, onEnd }: SessionListProps) {
  return (
    <section className={page.section} aria-labelledby={id}>
      <h2 id={id}>{heading}</h2>
      {hint && <p className={styles.hint}>{hint}</p>}
      {entries.length === 0 ? (
        <p className={page.lead}>{empty}</p>
      ) : (
        <ul className={styles.list}>
          {entries.map((facts) => (
            <SessionItem key={facts.id} facts={facts} onEnd={onEnd} />
          ))}
        </ul>
      )}
    </section>
  );
}
