import { useSearchParams } from 'react-router';
import { activityLabel, type Activity } from '@sso/contracts/account';
import { Button } from '../../ui/button.tsx';
import page from '../../ui/page.module.css';
import { useActivitiesQuery } from './activities-api.ts';
import { pageFromSearch, pageLinks } from './activities-paging.ts';
import { formatJapanTime, japanIsoTime } from '../../lib/japan-time.ts';
import { LoadStatus } from '../../ui/load-status.tsx';
import styles from './activities.module.css';

/**
 * The login and account-change history (SPEC.md sections 1 and 2, /user/activities): the member's
 * own security events, newest first, in Japanese, with the time in Japan time, the client, a coarse
 * device (in-app browsers such as LINE's by name) and the address it came from; 前へ / 次へ page it.
 * Named ログイン・操作履歴, not ご利用履歴, which on card sites means card spending.
 */
export function ActivitiesPage() {
  const [search, setSearch] = useSearchParams();
  const pageNo = pageFromSearch(search);
  const query = useActivitiesQuery(pageNo);
  // While another page loads, the previous page stays on screen (placeholder data).
  const loading = query.isPending || (query.isFetching && query.isPlaceholderData);
  const links = query.data ? pageLinks(query.data.page, query.data.has_next) : {};
  const goTo = (p: number) => setSearch(p === 1 ? {} : { page: String(p) });
  return (
    <>
      <h1>ログイン・操作履歴</h1>
      <LoadStatus loading={loading} error={query.error} />
      {query.data &&
        (query.data.activities.length === 0 ? (
          <p className={page.lead}>ログイン・操作履歴はありません。</p>
        ) : (
          <ol className={styles.list} aria-busy={loading || undefined}>
            {query.data.activities.map((a, i) => (
              <ActivityItem key={`${a.created_at}-${i}`} activity={a} />
            ))}
          </ol>
        ))}
      {(links.previous !== undefined || links.next !== undefined) && (
        <nav className={styles.pager} aria-label="ページ">
          <Button type="button" variant="secondary" disabled={links.previous === undefined} pending={loading} onClick={() => links.previous && goTo(links.previous)}>
            前へ
          </Button>
          <span>{query.data?.page}ページ</span>
          <Button type="button" variant="secondary" disabled={links.next === undefined} pending={loading} onClick={() => links.next && goTo(links.next)}>
            次へ
          </Button>
        </nav>
      )}
    </>
  );
}

function ActivityItem({ activity }: { activity: Activity }) {
  return (
    <li className={styles.item}>
      <time className={styles.time} dateTime={japanIsoTime(activity.created_at)}>
        {formatJapanTime(activity.created_at)}
      </time>
      <span className={styles.event}>{activityLabel(activity.event)}</span>
      <dl className={styles.details}>
        <dt>サービス</dt>
        <dd>{activity.client_name ?? '－'}</dd>
        <dt>端末</dt>
        <dd>{activity.device ?? '－'}</dd>
        <dt>IPアドレス</dt>
        <dd>{activity.address ?? '－'}</dd>
      </dl>
    </li>
  );
}
