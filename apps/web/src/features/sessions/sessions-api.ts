import { useQuery } from '@tanstack/react-query';
import { baseResponseSchema } from '@sso/contracts/common';
import { sessionsResponseSchema, type EndSessionRequest } from '@sso/contracts/sessions';
import { apiPost } from '../../lib/api-client.ts';

/** The signed-in browsers and services' calls (docs/decisions/0026-sso-session.md): JSON bodies with the Bearer token. */

export const SESSIONS_QUERY_KEY = ['sessions'] as const;

/** POST /api/user/sessions: the member's browsers and services, last used first. */
export async function fetchSessions(signal?: AbortSignal) {
  return apiPost('/api/user/sessions', sessionsResponseSchema, { auth: true, json: {}, what: 'sessions', ...(signal && { signal }) });
}

/** Queries use the 3 s stale time of the query client (SPEC.md section 7); no automatic retry. */
export const useSessionsQuery = () => useQuery({ queryKey: SESSIONS_QUERY_KEY, queryFn: ({ signal }) => fetchSessions(signal), retry: false });

/** POST /api/user/sessions/end: one browser (with its tokens) or one service's session. */
export const endMemberSession = (request: EndSessionRequest) => apiPost('/api/user/sessions/end', baseResponseSchema, { auth: true, json: request });

/** POST /api/user/sessions/end_all: every browser and service of the member, this one too. */
export const endAllSessions = () => apiPost('/api/user/sessions/end_all', baseResponseSchema, { auth: true, json: {} });
