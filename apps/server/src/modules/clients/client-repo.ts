import type { Kysely, Selectable } from 'kysely';
import { isPostgres } from '../../db/dialect.ts';
import { preparedQuery } from '../../db/prepared-query.ts';
import type { Database, OAuthClientSecretsTable, OAuthClientsTable } from '../../db/schema.ts';

export type ClientRow = Selectable<OAuthClientsTable>;
export type ClientSecretRow = Selectable<OAuthClientSecretsTable>;

/** The registry's version (migration 0020): the one value each node polls (decision 0031). */
export async function registryVersion(db: Kysely<Database>): Promise<number> {
  const row = await db.selectFrom('oauth_client_registry').select('version').where('id', '=', 1).executeTakeFirst();
  return Number(row?.version ?? 0);
}

/** Raises the version, in the transaction of the change it announces. */
export async function bumpRegistryVersion(db: Kysely<Database>): Promise<void> {
  await db
    .updateTable('oauth_client_registry')
    .set((eb) => ({ version: eb('version', '+', 1) }))
    .where('id', '=', 1)
    .execute();
}

/** Every client and every secret, with the version they were read at, in one transaction (a consistent snapshot). */
export async function readRegistry(db: Kysely<Database>): Promise<{ version: number; clients: ClientRow[]; secrets: ClientSecretRow[] }> {
  return db.transaction().execute(async (trx) => ({
    version: await registryVersion(trx),
    clients: await trx.selectFrom('oauth_clients').selectAll().orderBy('created_at').orderBy('client_id').execute(),
    secrets: await trx.selectFrom('oauth_client_secrets').selectAll().orderBy('created_at').orderBy('id').execute(),
  }));
}

export async function countClients(db: Kysely<Database>): Promise<number> {
  const row = await db.selectFrom('oauth_clients').select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** Inserts a client unless its client_id is taken; whether this insert was the one. */
export async function insertClient(db: Kysely<Database>, row: ClientRow): Promise<boolean> {
  const r = await db.insertInto('oauth_clients').values(row).onConflict((oc) => oc.column('client_id').doNothing()).executeTakeFirst();
  return Number(r.numInsertedOrUpdatedRows ?? 0) === 1;
}

/** Inserts a secret unless its id is taken (the first-start import's fixed ids, when two nodes import at once). */
export async function insertClientSecret(db: Kysely<Database>, row: ClientSecretRow): Promise<void> {
  await db.insertInto('oauth_client_secrets').values(row).onConflict((oc) => oc.column('id').doNothing()).execute();
}

export const findClientRow = (db: Kysely<Database>, clientId: string): Promise<ClientRow | undefined> =>
  db.selectFrom('oauth_clients').selectAll().where('client_id', '=', clientId).executeTakeFirst();

/**
 * A client's row in the caller's transaction, held until it ends: on PostgreSQL it is locked (SELECT
 * ... FOR UPDATE), so that a concurrent change waits and then reads what this one committed (READ
 * COMMITTED re-reads the row it waited for). SQLite runs one write transaction at a time, and this read
 * and the change share one, so there the row is already the truth (as lockActiveAdmins, operators).
 */
export async function lockClientRow(trx: Kysely<Database>, clientId: string): Promise<ClientRow | undefined> {
  let q = trx.selectFrom('oauth_clients').selectAll().where('client_id', '=', clientId);
  if (isPostgres(trx)) q = q.forUpdate();
  return q.executeTakeFirst();
}

/**
 * Whether the client is registered and enabled now, in the database (one read by its key): where a
 * grant is made, the node's polled copy of the registry may not yet know of a disable (decision 0031).
 */
// Compiled once (prepared-query.ts): every authorize post, code exchange, and token, introspection and revocation request reads it.
const enabledFlag = preparedQuery((db, p: { clientId: string }) => db.selectFrom('oauth_clients').select('enabled').where('client_id', '=', p.clientId));

/**
 * The client's enabled flag as a row of `key` (the client id) and `count` (1: enabled, 0: disabled;
 * no row: unknown): a part of a statement for `preparedQuery`, which the client authentication joins
 * to its failure counters' read with UNION ALL (modules/oauth/client-auth.ts), one statement for both.
 */
export const enabledFlagAsCounter = (db: Kysely<Database>, p: { clientId: string }) =>
  db.selectFrom('oauth_clients').select(['client_id as key', 'enabled as count']).where('client_id', '=', p.clientId);

export async function isClientEnabled(db: Kysely<Database>, clientId: string): Promise<boolean> {
  const row = (await enabledFlag(db, { clientId })).rows[0];
  return Number(row?.enabled ?? 0) === 1;
}

/** Writes a client's new definition; whether the client exists. */
export async function updateClientDefinition(db: Kysely<Database>, p: { clientId: string; definition: string; now: number }): Promise<boolean> {
  const r = await db.updateTable('oauth_clients').set({ definition: p.definition, updated_at: p.now }).where('client_id', '=', p.clientId).executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** Enables or disables a client; whether it changed (false: unknown, or already so). */
export async function setClientEnabledRow(db: Kysely<Database>, p: { clientId: string; enabled: boolean; now: number }): Promise<boolean> {
  const r = await db
    .updateTable('oauth_clients')
    .set({ enabled: p.enabled ? 1 : 0, updated_at: p.now })
    .where('client_id', '=', p.clientId)
    .where('enabled', '=', p.enabled ? 0 : 1)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/**
 * Dates the end of every secret the client has now (a rotation, before its new secret is written):
 * each ends at `retireAt`, or earlier where it already did; how many.
 */
export async function scheduleSecretRetirement(db: Kysely<Database>, p: { clientId: string; retireAt: number }): Promise<number> {
  const r = await db
    .updateTable('oauth_client_secrets')
    .set({ retire_at: p.retireAt })
    .where('client_id', '=', p.clientId)
    .where((eb) => eb.or([eb('retire_at', 'is', null), eb('retire_at', '>', p.retireAt)]))
    .executeTakeFirst();
  return Number(r.numUpdatedRows);
}

/** Ends now the secrets of a client in their overlap window (retiring but not yet retired); the current one (no retire time) stays; how many. */
export async function retireSecretsInOverlap(db: Kysely<Database>, p: { clientId: string; now: number }): Promise<number> {
  const r = await db
    .updateTable('oauth_client_secrets')
    .set({ retire_at: p.now })
    .where('client_id', '=', p.clientId)
    .where('retire_at', 'is not', null)
    .where('retire_at', '>', p.now)
    .executeTakeFirst();
  return Number(r.numUpdatedRows);
}
