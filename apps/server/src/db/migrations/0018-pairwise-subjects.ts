import type { Kysely } from 'kysely';

/**
 * Each session records the subject identifier its client knows the member by (OpenID Connect Core
 * 1.0 section 8.1; modules/oidc/subject.ts): the ID tokens of a refresh read it off the row the
 * refresh finds anyway, and an RP-initiated logout finds the sessions of the member its
 * `id_token_hint` names (`sub`, a keyed digest that cannot be turned back into the member) through
 * the index. Sessions from before this migration carry none: their subject is worked out when asked.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('token_families').addColumn('subject', 'text').execute();
  await db.schema.createIndex('token_families_subject').on('token_families').columns(['subject', 'client_id']).execute();
}
