import { useEffect } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import { LIMITS } from '@sso/contracts/constants';
import { refreshIfOlderThan, refreshTokens } from '../lib/api-client.ts';
import { isLoggedIn, saveWantedRoute } from '../lib/records.ts';

/**
 * Guard of the protected routes (SPEC.md section 2): a logged-out member goes to Welcome after the
 * wanted path and query are saved. Entering refreshes the token if issued over 500 ms ago, and a
 * refresh runs every 30 minutes while here (SPEC.md section 4).
 */
export function RequireLogin() {
  const location = useLocation();
  const loggedIn = isLoggedIn();
  useEffect(() => {
    if (loggedIn) void refreshIfOlderThan();
  }, [loggedIn, location.pathname]);
  useEffect(() => {
    if (!loggedIn) return;
    const timer = setInterval(() => void refreshTokens(), LIMITS.refreshIntervalMs);
    return () => clearInterval(timer);
  }, [loggedIn]);
  if (!loggedIn) {
    saveWantedRoute(`${location.pathname}${location.search}`);
    return <Navigate to="/" replace />;
  }
  return <Outlet />;
}
