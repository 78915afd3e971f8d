import type { Kysely } from 'kysely';
import type { Database } from './schema.ts';

const DAY = 24 * 60 * 60 * 1000;

/**
 * Removes rows that no longer decide anything: authorization codes a day after expiry (kept that
 * long so that a late replay is still recognised) and login throttles whose lock or run has lapsed.
 */
export async function purgeExpired(db: Kysely<Database>, now: number): Promise<void> {
  await db.deleteFrom('auth_codes').where('expires_at', '<', now - DAY).execute();
  await db
    .deleteFrom('login_throttle')
    .where('updated_at', '<', now - DAY)
    .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<', now)]))
    .execute();
}
