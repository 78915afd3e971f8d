import { QueryClient } from '@tanstack/react-query';
import { LIMITS } from '@sso/contracts/constants';
import { isLoggedIn } from './records.ts';

/**
 * The app's one query cache; queries use a stale time of 3 s (SPEC.md section 7). A module of its
 * own, provided only around the screens that query (app/require-login.tsx), so that TanStack Query
 * stays out of the login route's JavaScript (docs/performance.md). Every query is a logged-in
 * member's, so none runs without a login: once a withdrawal, an e-mail or a password change has
 * cleared the tokens, the page still shown while the next one loads does not fetch again (a refetch
 * on focus, a stale remount) with no token, into the re-login error flow.
 */
export const queryClient = new QueryClient({
  defaultOptions: { queries: { staleTime: LIMITS.queryStaleMs, enabled: () => isLoggedIn() } },
});
