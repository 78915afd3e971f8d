import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { activitiesResponseSchema } from '@sso/contracts/account';
import { apiPost } from '../../lib/api-client.ts';

/** The body of POST /api/user/activities (SPEC.md section 7): the page, 1 first. */
export const activitiesBody = (page: number) => ({ page });

/** One page of the member's own activity log, newest first (Bearer). */
export async function fetchActivities(page: number, signal?: AbortSignal) {
  return apiPost('/api/user/activities', activitiesResponseSchema, { auth: true, json: activitiesBody(page), what: 'activities', ...(signal && { signal }) });
}

/** The page shown stays while the next one loads, so that the list does not jump to empty. */
export const useActivitiesQuery = (page: number) =>
  useQuery({
    queryKey: ['activities', page],
    queryFn: ({ signal }) => fetchActivities(page, signal),
    placeholderData: keepPreviousData,
    retry: false,
  });
