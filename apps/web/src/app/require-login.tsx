import { useEffect, useLayoutEffect } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import { QueryClientProvider } from '@tanstack/react-query';
import { LIMITS } from '@sso/contracts/constants';
import { refreshIfOlderThan } from '../lib/api-client.ts';
import { queryClient } from '../lib/query-client.ts';
import { isLoggedIn, saveWantedRoute } from '../lib/records.ts';

/**
 * Guard of the protected routes (SPEC.md section 2): a logged-out member goes to Welcome after the
 * wanted path and query are saved (the callback restores them once). Entering a protected page
 * re-issues the token if it was issued over 500 ms earlier (SPEC.md sections 4 and 9). The query
 * cache is provided here, where the screens that query are, and not around the whole app: the
 * router loads this guard lazily, keeping TanStack Query out of the login route (docs/performance.md).
 */
export function RequireLogin() {
  const location = useLocation();
  const loggedIn = isLoggedIn();
  const wanted = `${location.pathname}${location.search}`;
  // A layout effect: it runs before the page's queries subscribe, so that their requests wait for
  // this refresh and carry the new token instead of racing it.
  useLayoutEffect(() => {
    if (loggedIn) void refreshIfOlderThan(LIMITS.refreshOnEntryAfterMs);
  }, [loggedIn, wanted]);
  useEffect(() => {
    if (!loggedIn) saveWantedRoute(wanted);
  }, [loggedIn, wanted]);
  if (!loggedIn) return <Navigate to="/" replace />;
  return (
    <QueryClientProvider client={queryClient}>
      <Outlet />
    </QueryClientProvider>
  );
}
