import type { Kysely, Selectable } from 'kysely';
import type { AuthCodesTable, Database } from '../../db/schema.ts';

export type AuthCodeRow = Selectable<AuthCodesTable>;

export async function insertCode(db: Kysely<Database>, row: AuthCodeRow): Promise<void> {
  await db.insertInto('auth_codes').values(row).execute();
}

/**
 * Consumes a code in one conditional update: of two concurrent redemptions exactly one gets the row.
 * The family id of the tokens about to be issued is written in the same statement, so that a later
 * replay can find and revoke them.
 */
export const consumeCode = (db: Kysely<Database>, codeHash: string, familyId: string, now: number) =>
  db
    .updateTable('auth_codes')
    .set({ consumed_at: now, family_id: familyId })
    .where('code_hash', '=', codeHash)
    .where('consumed_at', 'is', null)
    .returningAll()
    .executeTakeFirst();

export const findCode = (db: Kysely<Database>, codeHash: string) =>
  db.selectFrom('auth_codes').selectAll().where('code_hash', '=', codeHash).executeTakeFirst();
