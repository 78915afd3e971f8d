import { SESSION_SCREEN_TEXTS as T } from '@sso/contracts/session-screens';
import { Button } from '../../ui/button.tsx';
import type { SessionFacts } from './session-view.ts';
import styles from './sessions.module.css';

/** One browser or service of the list: its name, この端末 for the current one, its times, and its ログアウト button. */
export function SessionItem({ facts, onEnd }: { facts: SessionFacts; onEnd: (facts: SessionFacts) => void }) {
  return (
    <li className={styles.item}>
      <span className={styles.title}>
        {facts.title}
        {facts.current && <span className={styles.current}>{T.current}</span>}
      </span>
      <dl className={styles.details}>
        <dt>{T.startedAt}</dt>
        <dd>
          <time dateTime={facts.started.iso}>{facts.started.text}</time>
        </dd>
        <dt>{T.lastUsedAt}</dt>
        <dd>
          <time dateTime={facts.lastUsed.iso}>{facts.lastUsed.text}</time>
        </dd>
        {facts.lastService !== undefined && (
          <>
            <dt>{T.lastService}</dt>
            <dd>{facts.lastService}</dd>
          </>
        )}
        {facts.autoLoginEnds !== undefined && (
          <>
            <dt>{T.autoLoginEndsAt}</dt>
            <dd>
              <time dateTime={facts.autoLoginEnds.iso}>{facts.autoLoginEnds.text}</time>
            </dd>
          </>
        )}
      </dl>
      <div className={styles.itemActions}>
        <Button type="button" variant="secondary" aria-label={facts.buttonLabel} onClick={() => onEnd(facts)}>
          {T.logout}
        </Button>
      </div>
    </li>
  );
}
