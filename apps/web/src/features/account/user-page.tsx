import { Link } from 'react-router';
import { SESSION_SCREEN_TEXTS } from '@sso/contracts/session-screens';
import { useCardsQuery } from '../../lib/cards-query.ts';
import { PASSWORD_MASK } from '../../lib/profile-summary.ts';
import { saveSession } from '../../lib/records.ts';
import { buttonClass } from '../../ui/button.tsx';
import { CardList } from '../../ui/card-face.tsx';
import page from '../../ui/page.module.css';
import { LoadStatus } from '../../ui/load-status.tsx';
import { useTopQuery } from './top-api.ts';
import styles from './top.module.css';

/**
 * User (SPEC.md section 2, /user): the current e-mail, the login mobile number (decision 0014), a
 * masked password, the change buttons
 * (profile change for open members only) and the registered cards (/api/subuser/cards). The
 * account part reads the same answer as Top (its one request, /api/user/top), so a visit from
 * Top reuses it.
 */
export function UserPage() {
  const query = useTopQuery();
  return (
    <>
      <h1>登録情報</h1>
      <LoadStatus loading={query.isPending} error={query.error} />
      {query.isSuccess && (
        <UserContent email={query.data.user.email} loginTel={query.data.user.login_tel ?? null} isOpenMember={query.data.attribute.is_user_open} />
      )}
    </>
  );
}

/** The registered cards (SPEC.md section 2, "User: ... the registered cards"), from /api/subuser/cards. */
function UserCards() {
  const cards = useCardsQuery();
  return (
    <>
      <LoadStatus loading={cards.isPending} error={cards.error} />
      {cards.isSuccess && <CardList cards={cards.data} cardKey={(card) => card.subuser_id} />}
      <p className={page.lead}>
        <Link to="/subusers/all">カードの追加・削除</Link>
      </p>
    </>
  );
}

function UserContent({ email, loginTel, isOpenMember }: { email: string; loginTel: string | null; isOpenMember: boolean }) {
  // Reached from here and not from Top's settings: the change screens show no way back to Top.
  const notFromTop = () => saveSession({ goesToTop: false });
  return (
    <>
      <section className={page.section} aria-labelledby="login-info-heading">
        <h2 id="login-info-heading">ログイン情報</h2>
        <dl className={styles.info}>
          <dt>メールアドレス</dt>
          <dd>{email}</dd>
          {/* The login mobile number, masked by the server; only a number proven by SMS (decision 0014). */}
          <dt>ログイン用携帯電話番号</dt>
          <dd>{loginTel ?? '未登録'}</dd>
          <dt>パスワード</dt>
          {/* The password is never sent to the browser: a fixed mask (SPEC.md section 2). */}
          <dd>{PASSWORD_MASK}</dd>
        </dl>
        <div className={`${page.actions} ${styles.section}`}>
          <Link to="/user/email" className={buttonClass('secondary')} onClick={notFromTop}>
            メールアドレスを変更する
          </Link>
          <Link to="/user/tel" className={buttonClass('secondary')} onClick={notFromTop}>
            {loginTel ? 'ログイン用携帯電話番号を変更する' : 'ログイン用携帯電話番号を登録する'}
          </Link>
          <Link to="/user/password" className={buttonClass('secondary')} onClick={notFromTop}>
            パスワードを変更する
          </Link>
          <Link to="/user/passkeys" className={buttonClass('secondary')} onClick={notFromTop}>
            パスキーの管理
          </Link>
          <Link to="/user/sessions" className={buttonClass('secondary')} onClick={notFromTop}>
            {SESSION_SCREEN_TEXTS.link}
          </Link>
          {isOpenMember && (
            <Link to="/user/profile" className={buttonClass('secondary')} onClick={notFromTop}>
              プロフィールを変更する
            </Link>
          )}
        </div>
      </section>
      <section className={page.section} aria-labelledby="cards-heading">
        <h2 id="cards-heading">登録カード</h2>
        <UserCards />
      </section>
    </>
  );
}
