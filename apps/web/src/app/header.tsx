import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { LOGO_DATA_URI } from '@sso/contracts/page-frame';
import { keptAccount } from '../lib/account-identity.ts';
import { ensureOAuthClient, getAccount, getOAuthClient } from '../lib/records.ts';
import { PRODUCT_NAME } from './document-title.ts';
import { loginPath } from './logo-link.ts';
import styles from './layout.module.css';
import { useLogout } from './use-logout.ts';

/**
 * Whose account is open (decision 0013): the logged-in header names the member's login e-mail on
 * every screen, so that no change is made to an account the member did not mean (a direct login
 * may have opened another one). Learnt once per login from /api/user.
 */
function AccountLine() {
  const known = getAccount()?.email;
  const [fetched, setFetched] = useState<string>();
  useEffect(() => {
    if (known) return;
    let current = true;
    void keptAccount().then((a) => {
      if (current) setFetched(a?.email);
    });
    return () => {
      current = false;
    };
  }, [known]);
  const email = known ?? fetched;
  if (!email) return null;
  return (
    <p className={styles.account}>
      <span className={styles.accountLabel}>ログイン中のアカウント：</span>
      <span className={styles.accountEmail} title={email}>
        {email}
      </span>
    </p>
  );
}

/**
 * The logged-out logo's link: the login route with the saved OAuth client, read at each render (a
 * login or logout makes a new state and PKCE pair, and the header stays while pages change). With
 * none saved yet, one is made as Welcome makes it (SPEC.md section 4).
 */
function useLoginPath(loggedIn: boolean): string {
  const saved = getOAuthClient();
  const hasSaved = saved !== undefined;
  const [, setMade] = useState<unknown>();
  useEffect(() => {
    if (loggedIn || hasSaved) return;
    let live = true;
    void ensureOAuthClient().then((made) => {
      if (live) setMade(made);
    });
    return () => {
      live = false;
    };
  }, [loggedIn, hasSaved]);
  return loginPath(saved);
}

/**
 * Logged-out header: only a logo linking to the login page. Logged-in header: a logo linking to
 * Top, a logout button and whose account is open. Some error pages show the logo with no link
 * (SPEC.md section 2).
 */
export function Header({ loggedIn, logoLink = true }: { loggedIn: boolean; logoLink?: boolean }) {
  const { logout, pending } = useLogout();
  const login = useLoginPath(loggedIn);
  const logo = <img src={LOGO_DATA_URI} alt={PRODUCT_NAME} />;
  return (
    <header className={styles.header}>
      <div className={styles.headerInner}>
        {logoLink ? (
          <Link to={loggedIn ? '/top' : login} className={styles.logo}>
            {logo}
          </Link>
        ) : (
          <span className={styles.logo}>{logo}</span>
        )}
        {loggedIn && (
          <button type="button" className={styles.logout} onClick={logout} disabled={pending}>
            ログアウト
          </button>
        )}
      </div>
      {loggedIn && <AccountLine />}
    </header>
  );
}
