import type { Kysely } from 'kysely';

// The registry as it stood when scopes were introduced (config/clients.json, SPEC.md section 6),
// written out so that this migration means the same thing whatever the registry says later.
const FIRST_PARTY = ['SIAP009', 'SIAP005', 'SIAP006', 'SIAP007', 'SIAP008'];
const FIRST_PARTY_SCOPE = 'openid user:read account:write activity:read cards:read cards:write link:write points:read points:transfer direct_login';
const PARTNER_SCOPE = 'openid user:read';

type Db = Kysely<Record<string, Record<string, unknown>>>;

/**
 * Every token records its audience beside its client and scope (docs/decisions/0010-scopes-and-
 * audience.md). Until now every token could call every Bearer endpoint, whatever its scope said
 * (always `openid`): the sessions and codes alive at the upgrade are narrowed to what their client
 * may have from now on, so that no member is logged out and no partner gains anything: first-party
 * clients keep managing the account, with Net Answer in the audience (it introspects their tokens,
 * SPEC.md section 7); every other client reads the member only.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('token_families').addColumn('audience', 'text', (c) => c.notNull().defaultTo('member-api')).execute();
  const d = db as unknown as Db;
  await d.updateTable('token_families').set({ scope: FIRST_PARTY_SCOPE, audience: 'member-api SIAP004' }).where('client_id', 'in', FIRST_PARTY).where('scope', '=', 'openid').execute();
  await d.updateTable('token_families').set({ scope: PARTNER_SCOPE }).where('client_id', 'not in', FIRST_PARTY).where('scope', '=', 'openid').execute();
  await d.updateTable('auth_codes').set({ scope: FIRST_PARTY_SCOPE }).where('client_id', 'in', FIRST_PARTY).where('scope', '=', 'openid').where('consumed_at', 'is', null).execute();
  await d.updateTable('auth_codes').set({ scope: PARTNER_SCOPE }).where('client_id', 'not in', FIRST_PARTY).where('scope', '=', 'openid').where('consumed_at', 'is', null).execute();
}
