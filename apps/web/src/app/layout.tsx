import { useEffect, type ReactNode } from 'react';
import { Outlet, useLocation, useNavigate } from 'react-router';
import { startScheduledRefresh } from '../lib/api-client.ts';
import { registerNavigator } from '../lib/navigation.ts';
import { isLoggedIn } from '../lib/records.ts';
import { Footer } from './footer.tsx';
import { Header } from './header.tsx';
import { logoLinks } from './logo-link.ts';
import styles from './layout.module.css';

/**
 * The page frame (SPEC.md section 2): header by login state, a 700 px main column on PC, footer;
 * page changes scroll to the top. It also lets non-React code navigate, and runs the scheduled
 * token refresh while logged in (SPEC.md section 4).
 */
export function Frame({ children }: { children: ReactNode }) {
  const location = useLocation();
  const navigate = useNavigate();
  useEffect(() => {
    registerNavigator((to, opts) => {
      void navigate(to, opts);
    });
  }, [navigate]);
  useEffect(() => startScheduledRefresh(), []);
  useEffect(() => {
    window.scrollTo(0, 0);
  }, [location.pathname]);
  return (
    <div className={styles.page}>
      <Header loggedIn={isLoggedIn()} logoLink={logoLinks(location.pathname)} />
      <main className={styles.main}>{children}</main>
      <Footer />
    </div>
  );
}

export const Layout = () => (
  <Frame>
    <Outlet />
  </Frame>
);
