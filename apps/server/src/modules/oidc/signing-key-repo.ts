import type { Kysely, Selectable } from 'kysely';
import type { Database, SigningKeysTable } from '../../db/schema.ts';

export type SigningKeyRow = Selectable<SigningKeysTable>;

/** Every key this server holds, oldest first: a handful of rows, read by each node every SIGNING_KEYS.cacheMs. */
export const listSigningKeys = (db: Kysely<Database>): Promise<SigningKeyRow[]> => db.selectFrom('signing_keys').selectAll().orderBy('generation').execute();

/**
 * Inserts a key unless one of its generation is there already; true when this insert is the one that
 * counts. Of several nodes creating a first key at once, or two rotations at once, one wins and the
 * others read its row (the unique `generation`, migration 0016).
 */
export async function insertSigningKey(db: Kysely<Database>, row: SigningKeyRow): Promise<boolean> {
  const r = await db.insertInto('signing_keys').values(row).onConflict((oc) => oc.column('generation').doNothing()).executeTakeFirst();
  return Number(r.numInsertedOrUpdatedRows ?? 0) === 1;
}

/** Dates the end of every key of `alg` older than `generation` that has none yet: it signs until `retireAfter` and is published until `expiresAt`. */
export async function retireSigningKeysBefore(db: Kysely<Database>, p: { alg: string; generation: number; retireAfter: number; expiresAt: number }): Promise<void> {
  await db
    .updateTable('signing_keys')
    .set({ retire_after: p.retireAfter, expires_at: p.expiresAt })
    .where('alg', '=', p.alg)
    .where('generation', '<', p.generation)
    .where('retire_after', 'is', null)
    .execute();
}
