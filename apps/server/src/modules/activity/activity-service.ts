import type { Kysely } from 'kysely';
import { ACTIVITY_PAGE_SIZE, type Activity } from '@sso/contracts/account';
import type { Database } from '../../db/schema.ts';
import type { ClientRegistry } from '../clients/clients.ts';
import { addressOf, deviceOf, listActivities } from './activity-repo.ts';

/**
 * One page of the member's own activity log, newest first (SPEC.md section 1, "view an
 * activity log"). One row more than a page is read to know whether a next page exists. The SPA
 * turns event keys into Japanese with ACTIVITY_LABELS.
 */
export async function activityPage(
  deps: { db: Kysely<Database>; clients: ClientRegistry },
  userId: string,
  page: number,
): Promise<{ activities: Activity[]; page: number; has_next: boolean }> {
  const rows = await listActivities(deps.db, userId, (page - 1) * ACTIVITY_PAGE_SIZE, ACTIVITY_PAGE_SIZE + 1);
  const activities = rows.slice(0, ACTIVITY_PAGE_SIZE).map((r) => ({
    event: r.event,
    created_at: Number(r.created_at),
    client_id: r.client_id,
    client_name: r.client_id ? (deps.clients.get(r.client_id)?.name ?? null) : null,
    device: deviceOf(r.detail),
    address: addressOf(r.detail),
  }));
  return { activities, page, has_next: rows.length > ACTIVITY_PAGE_SIZE };
}
