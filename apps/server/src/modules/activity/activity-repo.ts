import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { newId } from '../../lib/secrets.ts';

/** Security events of the member's activity log. Never a secret in `detail`. */
export type ActivityEvent =
  | 'login'
  | 'login_failed'
  | 'login_locked'
  | 'logout'
  | 'token_replay'
  | 'code_reuse'
  | 'signup'
  /** A reset link was mailed to the member (issue 4). */
  | 'password_reset_requested'
  /** The password was set from a reset link; every session was revoked (issue 4). */
  | 'password_reset';

export async function logActivity(
  db: Kysely<Database>,
  entry: { userId: string; event: ActivityEvent; clientId?: string | null; detail?: string | null; at: number },
): Promise<void> {
  await db
    .insertInto('activity_log')
    .values({
      id: newId(),
      user_id: entry.userId,
      event: entry.event,
      client_id: entry.clientId ?? null,
      detail: entry.detail ?? null,
      created_at: entry.at,
    })
    .execute();
}
