import type { Kysely } from 'kysely';

/**
 * One index on token_grants for both ways a grant is found other than by its id or a token hash
 * (decision 0008): (family_id, parent_id) serves a family's revocation by its first column and the
 * grace retry's lookup of a grant's unused children (supersedeChildren) by both. It replaces the
 * two single-column indexes, so that every refresh, which writes one grant row, updates one index
 * fewer.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('token_grants_family_parent').on('token_grants').columns(['family_id', 'parent_id']).execute();
  await db.schema.dropIndex('token_grants_family').execute();
  await db.schema.dropIndex('token_grants_parent').execute();
}
