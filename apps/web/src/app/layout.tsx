import { useEffect } from 'react';
import { Outlet, useLocation, useNavigate } from 'react-router';
import { isLoggedIn } from '../lib/records.ts';
import { registerNavigator } from '../lib/navigation.ts';
import { Footer } from './footer.tsx';
import { Header } from './header.tsx';
import styles from './layout.module.css';

/** The page frame: header by login state, 700 px main column on PC, footer; scroll to top on page change. */
export function Layout() {
  const location = useLocation();
  const navigate = useNavigate();
  useEffect(() => {
    registerNavigator((to, opts) => {
      void navigate(to, opts);
    });
  }, [navigate]);
  useEffect(() => {
    window.scrollTo(0, 0);
  }, [location.pathname]);
  return (
    <div className={styles.page}>
      <Header loggedIn={isLoggedIn()} />
      <main className={styles.main}>
        <Outlet />
      </main>
      <Footer />
    </div>
  );
}
