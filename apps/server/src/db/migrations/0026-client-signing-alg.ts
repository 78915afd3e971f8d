import type { Kysely } from 'kysely';

/**
 * Every client registered before RS256 came keeps the ES256 ID tokens it was given (decision 0034):
 * a client definition without `id_token_signed_response_alg` would now mean RS256 (Dynamic Client
 * Registration 1.0 section 2), which a partner whose library was set to ES256 would refuse, and which
 * would cost the member's own apps a slower signature at every refresh. So each stored definition
 * that names none is given ES256; an administrator moves a client to RS256 when its partner asks. The
 * registry's version is raised so that nodes already running reload (decision 0031).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const kdb = db as Kysely<{ oauth_clients: { client_id: string; definition: string }; oauth_client_registry: { id: number; version: number } }>;
  const rows = await kdb.selectFrom('oauth_clients').select(['client_id', 'definition']).execute();
  let changed = 0;
  for (const row of rows) {
    const definition = JSON.parse(row.definition) as Record<string, unknown>;
    if (definition.id_token_signed_response_alg !== undefined) continue;
    const pinned = JSON.stringify({ ...definition, id_token_signed_response_alg: 'ES256' });
    await kdb.updateTable('oauth_clients').set({ definition: pinned }).where('client_id', '=', row.client_id).execute();
    changed++;
  }
  if (changed > 0) await kdb.updateTable('oauth_client_registry').set((eb) => ({ version: eb('version', '+', 1) })).where('id', '=', 1).execute();
}
