import { Link } from 'react-router';
import { SESSION_SCREEN_TEXTS } from '@sso/contracts/session-screens';
import type { TopSummaryResponse } from '@sso/contracts/top';
import type { MemberAttributes } from '@sso/contracts/user';
import { formatJapanTime, japanIsoTime } from '../../lib/japan-time.ts';
import { saveSession } from '../../lib/records.ts';
import { CardList } from '../../ui/card-face.tsx';
import { LoadStatus } from '../../ui/load-status.tsx';
import { serviceEntries } from './service-entries.ts';
import { useTopQuery } from './top-api.ts';
import { TopPointEntries } from './top-point-entries.tsx';
import styles from './top.module.css';

/**
 * Top (SPEC.md section 2): the member greeted by name (〇〇様) where one is known, account info with
 * the previous login and its device, the registered cards and card entries, points, Net Answer and
 * service links, settings.
 */
export function TopPage() {
  const query = useTopQuery();
  return (
    <>
      <h1>トップ</h1>
      <LoadStatus loading={query.isPending} error={query.error} />
      {query.isSuccess && <TopContent email={query.data.user.email} attribute={query.data.attribute} summary={query.data.summary} />}
    </>
  );
}

function TopContent({ email, attribute, summary }: { email: string; attribute: MemberAttributes; summary: Omit<TopSummaryResponse, 'user' | 'attribute'> }) {
  const { netAnswer, services: links } = serviceEntries(attribute);
  const previous = summary.previous_login;
  return (
    <>
      {summary.name && <p className={styles.greeting}>{summary.name}様</p>}
      <dl className={styles.info}>
        <dt>メールアドレス</dt>
        <dd>{email}</dd>
        <dt>会員種別</dt>
        <dd>{attribute.is_user_open ? 'オープン会員' : 'カード会員'}</dd>
        {previous && (
          <>
            <dt>前回ログイン日時</dt>
            <dd>
              <time dateTime={japanIsoTime(previous.at)}>{formatJapanTime(previous.at)}</time>
            </dd>
            <dt>前回ログインの端末</dt>
            <dd>{previous.device ?? '－'}</dd>
          </>
        )}
      </dl>
      <section className={styles.section} aria-labelledby="account-heading">
        <h2 id="account-heading">アカウント</h2>
        <ul className={styles.list}>
          <li>
            <Link to="/user">登録情報</Link>
          </li>
          <li>
            <Link to="/user/activities">ログイン・操作履歴</Link>
          </li>
        </ul>
      </section>
      <section className={styles.section} aria-labelledby="cards-heading">
        <h2 id="cards-heading">カード</h2>
        <div className={styles.cards}>
          <CardList cards={summary.cards} cardKey={(card) => card.subuser_id} />
        </div>
        <ul className={styles.list}>
          <li>
            <Link to="/subusers/all">カードを追加する</Link>
          </li>
          <li>
            <Link to="/subuser/remove">カードを削除する</Link>
          </li>
        </ul>
      </section>
      <TopPointEntries isOpenMember={attribute.is_user_open} points={summary.points} />
      {(netAnswer || links.length > 0) && (
        <section className={styles.section} aria-labelledby="services-heading">
          <h2 id="services-heading">サービス</h2>
          <ul className={styles.list}>
            {netAnswer && (
              <li>
                <Link to="/subuser/redirect/netanswer">Net Answer</Link>
              </li>
            )}
            {links.map((s) => (
              <li key={s.client_id}>
                <Link to={`/subuser/redirect/service?${new URLSearchParams({ client_id: s.client_id, service_name: s.name }).toString()}`}>{s.name}</Link>
              </li>
            ))}
          </ul>
        </section>
      )}
      <Settings isOpenMember={attribute.is_user_open} />
    </>
  );
}

/**
 * The collapsible settings group (SPEC.md section 2); profile change is for open members only. Its
 * links record goesToTop, so that the change screens offer a way back to Top (SPEC.md section 2).
 */
function Settings({ isOpenMember }: { isOpenMember: boolean }) {
  const toTop = () => saveSession({ goesToTop: true });
  return (
    <details className={styles.settings}>
      <summary>設定</summary>
      <ul className={styles.list}>
        <li>
          <Link to="/user/email" onClick={toTop}>メールアドレス変更</Link>
        </li>
        <li>
          <Link to="/user/password" onClick={toTop}>パスワード変更</Link>
        </li>
        <li>
          <Link to="/user/passkeys" onClick={toTop}>パスキー</Link>
        </li>
        <li>
          <Link to="/user/sessions" onClick={toTop}>{SESSION_SCREEN_TEXTS.link}</Link>
        </li>
        {isOpenMember && (
          <li>
            <Link to="/user/profile" onClick={toTop}>プロフィール変更</Link>
          </li>
        )}
        <li>
          <Link to="/user/cancel" onClick={toTop}>退会</Link>
        </li>
      </ul>
    </details>
  );
}
