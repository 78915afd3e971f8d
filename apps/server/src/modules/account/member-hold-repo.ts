import type { Kysely } from 'kysely';
import { isPostgres } from '../../db/dialect.ts';
import { preparedQuery } from '../../db/prepared-query.ts';
import type { Database } from '../../db/schema.ts';

/**
 * The member's row as a guard between the events that end a member's sessions and the steps that
 * start one (docs/security.md "Ending a member's sessions"). Every ending event writes the member's
 * row before it runs the session-ending kernel, and the kernel takes the row first itself; a step
 * that creates a way in for the member (an authorization code, a token family, a direct-login
 * token) holds the row shared before it reads what it redeems. On PostgreSQL the two then take
 * turns: the event sees what the step created and ends it, or the step sees the event's outcome (a
 * used-up secret, a new password, a withdrawn member) and refuses. SQLite runs one transaction at a
 * time on a node's one connection: the plain read is enough there.
 */

// Compiled once per database (prepared-query.ts): a login's code is issued under it.
const heldRow = preparedQuery((db, p: { id: string }) => {
  const row = db.selectFrom('users').select(['status', 'password_hash']).where('id', '=', p.id);
  return isPostgres(db) ? row.forShare() : row;
});

/** Holds the member's row shared to the end of the caller's transaction; what it says now, or undefined. */
export async function holdMember(db: Kysely<Database>, userId: string): Promise<{ active: boolean; passwordHash: string } | undefined> {
  const row = (await heldRow(db, { id: userId })).rows[0];
  return row && { active: row.status === 'active', passwordHash: row.password_hash };
}

/** Takes the member's row for the ending event's transaction (the kernel, before it ends anything). */
export async function lockMember(db: Kysely<Database>, userId: string): Promise<void> {
  await db
    .updateTable('users')
    .set((eb) => ({ updated_at: eb.ref('updated_at') }))
    .where('id', '=', userId)
    .execute();
}
