import { useEffect } from 'react';
import { Link } from 'react-router';
import { LIMITS } from '@sso/contracts/constants';
import { TEXTS } from '@sso/contracts/messages';
import { RESULT } from '@sso/contracts/result-codes';
import type { UserAttributeResponse } from '@sso/contracts/user';
import { goToError } from '../../lib/navigation.ts';
import { ApiFailure } from '../../lib/result.ts';
import { Alert } from '../../ui/alert.tsx';
import { useDelayed } from '../../ui/use-delayed.ts';
import { useTopQuery } from './top-api.ts';
import styles from './top.module.css';

/** Failures that leave Top for the error routes: the 5 s abort and network (99999), out of service (501). */
const ROUTED: number[] = [RESULT.CLIENT_SPECIAL, RESULT.OUT_OF_SERVICE];

/** Top (SPEC.md section 2): account info, card entries, Net Answer and service links, settings. */
export function TopPage() {
  const query = useTopQuery();
  // The loading text shows only if loading lasts over 100 ms (SPEC.md section 9).
  const showLoading = useDelayed(query.isPending || undefined, LIMITS.loadingTextDelayMs);

  useEffect(() => {
    const e = query.error;
    // A 401 whose refresh failed has already gone to the error flow in the API client.
    if (e instanceof ApiFailure && e.status !== 401 && ROUTED.includes(e.result.result_code)) {
      goToError(e.result.result_code, e.result.result_message);
    }
  }, [query.error]);

  return (
    <>
      <h1>トップ</h1>
      {query.isPending && showLoading && <p>{TEXTS.loading}</p>}
      {query.isError && <Alert message={TEXTS.loadFailed} />}
      {query.isSuccess && <TopContent email={query.data.user.email} attribute={query.data.attribute} />}
    </>
  );
}

function TopContent({ email, attribute }: { email: string; attribute: UserAttributeResponse }) {
  const links = attribute.service_links ?? [];
  return (
    <>
      <dl className={styles.info}>
        <dt>メールアドレス</dt>
        <dd>{email}</dd>
        <dt>会員種別</dt>
        <dd>{attribute.is_user_open ? 'オープン会員' : 'カード会員'}</dd>
      </dl>
      <section className={styles.section} aria-labelledby="cards-heading">
        <h2 id="cards-heading">カード</h2>
        <ul className={styles.list}>
          <li>
            <Link to="/subusers/all">カードを追加する</Link>
          </li>
          <li>
            <Link to="/subuser/remove">カードを削除する</Link>
          </li>
        </ul>
      </section>
      {(attribute.is_user_saison_card || links.length > 0) && (
        <section className={styles.section} aria-labelledby="services-heading">
          <h2 id="services-heading">サービス</h2>
          <ul className={styles.list}>
            {attribute.is_user_saison_card && (
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

/** The collapsible settings group (SPEC.md section 2); profile change is for open members only. */
function Settings({ isOpenMember }: { isOpenMember: boolean }) {
  return (
    <details className={styles.settings}>
      <summary>設定</summary>
      <ul className={styles.list}>
        <li>
          <Link to="/user/email">メールアドレス変更</Link>
        </li>
        <li>
          <Link to="/user/password">パスワード変更</Link>
        </li>
        {isOpenMember && (
          <li>
            <Link to="/user/profile">プロフィール変更</Link>
          </li>
        )}
        <li>
          <Link to="/user/cancel">退会</Link>
        </li>
      </ul>
    </details>
  );
}
