import { Link } from 'react-router';
import logoUrl from './logo.svg';
import styles from './layout.module.css';
import { useLogout } from './use-logout.ts';

/**
 * Logged-out header: only a logo linking to the login page. Logged-in header: a logo linking to
 * Top and a logout button. Some error pages show the logo with no link (SPEC.md section 2).
 */
export function Header({ loggedIn, logoLink = true }: { loggedIn: boolean; logoLink?: boolean }) {
  const { logout, pending } = useLogout();
  const logo = <img src={logoUrl} alt="メンバーID" />;
  return (
    <header className={styles.header}>
      <div className={styles.headerInner}>
        {logoLink ? (
          <Link to={loggedIn ? '/top' : '/'} className={styles.logo}>
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
    </header>
  );
}
