import { useEffect } from 'react';
import { Link } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { LIMITS } from '@sso/contracts/constants';
import { TEXTS } from '@sso/contracts/messages';
import type { UserAttributeResponse, UserResponse } from '@sso/contracts/user';
import { apiPost } from '../../lib/api-client.ts';
import { goToError } from '../../lib/navigation.ts';
import { ApiFailure, networkFailure } from '../../lib/result.ts';
import { useDelayed } from '../../ui/use-delayed.ts';
import styles from './top.module.css';

/** The Top page's request is aborted after 5 s (SPEC.md section 9). */
const fetchTop = async (signal: AbortSignal) => {
  const timeout = AbortSignal.timeout(LIMITS.topRequestTimeoutMs);
  const both = AbortSignal.any([signal, timeout]);
  try {
    const [user, attribute] = await Promise.all([
      apiPost<UserResponse>('/api/user', { auth: true, signal: both }),
      apiPost<UserAttributeResponse>('/api/user/attribute', { auth: true, signal: both }),
    ]);
    return { user, attribute };
  } catch (e) {
    if (timeout.aborted) throw networkFailure();
    throw e;
  }
};

/** Top (SPEC.md section 2): account info, card entries, settings, Net Answer and service links. */
export function TopPage() {
  const query = useQuery({ queryKey: ['top'], queryFn: ({ signal }) => fetchTop(signal), retry: false });
  const showLoading = useDelayed(query.isPending || undefined, LIMITS.loadingTextDelayMs);

  useEffect(() => {
    const e = query.error;
    if (e instanceof ApiFailure && e.status !== 401) goToError(e.result.result_code, e.result.result_message);
  }, [query.error]);

  if (query.isPending) return <>{showLoading && <p>{TEXTS.loading}</p>}</>;
  if (query.isError) return <p role="alert">{TEXTS.loadFailed}</p>;
  const { user, attribute } = query.data;

  return (
    <>
      <h1>トップ</h1>
      <dl className={styles.info}>
        <dt>メールアドレス</dt>
        <dd>{user.email}</dd>
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
      {(attribute.is_user_saison_card || attribute.service_links.length > 0) && (
        <section className={styles.section} aria-labelledby="services-heading">
          <h2 id="services-heading">サービス</h2>
          <ul className={styles.list}>
            {attribute.is_user_saison_card && (
              <li>
                <Link to="/subuser/redirect/netanswer">Net Answer</Link>
              </li>
            )}
            {attribute.service_links.map((s) => (
              <li key={s.client_id}>
                <Link to={`/subuser/redirect/service?client_id=${encodeURIComponent(s.client_id)}&service_name=${encodeURIComponent(s.name)}`}>
                  {s.name}
                </Link>
              </li>
            ))}
          </ul>
        </section>
      )}
      <details className={styles.settings}>
        <summary>設定</summary>
        <ul className={styles.list}>
          <li>
            <Link to="/user/email">メールアドレス変更</Link>
          </li>
          <li>
            <Link to="/user/password">パスワード変更</Link>
          </li>
          {attribute.is_user_open && (
            <li>
              <Link to="/user/profile">プロフィール変更</Link>
            </li>
          )}
          <li>
            <Link to="/user/cancel">退会</Link>
          </li>
        </ul>
      </details>
    </>
  );
}
