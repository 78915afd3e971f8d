import { useEffect, useRef, type ReactNode } from 'react';
import { Outlet, useLocation, useMatches, useNavigate, useNavigation } from 'react-router';
import { startScheduledRefresh } from '../lib/api-client.ts';
import { registerNavigator } from '../lib/navigation.ts';
import { isLoggedIn } from '../lib/records.ts';
import { LoadingText } from '../ui/loading-text.tsx';
import { documentTitle, routeTitle } from './document-title.ts';
import { Footer } from './footer.tsx';
import { Header } from './header.tsx';
import { useHeadingFocus } from './heading-focus.ts';
import { logoLinks } from './logo-link.ts';
import styles from './layout.module.css';

/**
 * The page frame (SPEC.md section 2): header by login state, a 700 px main column on PC, footer;
 * page changes scroll to the top. Each route's own document title (router.tsx), and after a route
 * change the focus on the new page's heading; while the next screen's code loads, the loading text
 * in main. It also lets non-React code navigate, and runs the scheduled token refresh while logged
 * in (SPEC.md section 4).
 */
export function Frame({ children }: { children: ReactNode }) {
  const location = useLocation();
  const navigate = useNavigate();
  const title = documentTitle(routeTitle(useMatches()));
  const loadingScreen = useNavigation().state === 'loading';
  const main = useRef<HTMLElement>(null);
  useHeadingFocus(main, location.key);
  useEffect(() => {
    document.title = title;
  }, [title]);
  useEffect(() => {
    registerNavigator((to, opts) => {
      void navigate(to, opts);
    });
  }, [navigate]);
  useEffect(() => startScheduledRefresh(), []);
  useEffect(() => {
    window.scrollTo(0, 0);
  }, [location.pathname]);
  const loggedIn = isLoggedIn();
  return (
    <div className={styles.page}>
      <Header loggedIn={loggedIn} logoLink={logoLinks(location.pathname, loggedIn)} />
      <main className={styles.main} ref={main}>
        {loadingScreen && <LoadingText />}
        {children}
      </main>
      <Footer />
    </div>
  );
}

export const Layout = () => (
  <Frame>
    <Outlet />
  </Frame>
);
