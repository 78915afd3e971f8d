import { useQuery } from '@tanstack/react-query';
import { pointInfoResponseSchema } from '@sso/contracts/points';
import { apiPost } from './api-client.ts';

/**
 * The member's point info (SPEC.md section 3, "Point info"): POST /api/user/aqf with the Bearer
 * token. Top, withdrawal, the open-account link and the transfer screens read it, so it lives here.
 */
export const fetchPointInfo = (signal?: AbortSignal) =>
  apiPost('/api/user/aqf', pointInfoResponseSchema, { auth: true, what: 'point info', ...(signal && { signal }) });

/** The query's key: a link or a transfer invalidates it, so that every screen shows the new balances. */
export const POINT_INFO_KEY = ['aqf'] as const;

/** Queries use the 3 s stale time of the query client (SPEC.md section 7); no automatic retry. */
export const usePointInfoQuery = () => useQuery({ queryKey: POINT_INFO_KEY, queryFn: ({ signal }) => fetchPointInfo(signal), retry: false });

/** A point figure as members read it: 1,200ポイント. */
export const formatPoints = (points: number) => `${points.toLocaleString('ja-JP')}ポイント`;
