import { QueryClient } from '@tanstack/react-query';
import { LIMITS } from '@sso/contracts/constants';

/**
 * The app's one query cache; queries use a stale time of 3 s (SPEC.md section 7). A module of its
 * own, provided only around the screens that query (app/require-login.tsx), so that TanStack Query
 * stays out of the login route's JavaScript (issue 9).
 */
export const queryClient = new QueryClient({ defaultOptions: { queries: { staleTime: LIMITS.queryStaleMs } } });
