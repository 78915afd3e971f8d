import type { Insertable, Kysely, Selectable } from 'kysely';
import type { Database, OperatorPasskeysTable, OperatorSessionsTable, OperatorsTable } from '../../db/schema.ts';
import { usedColumns, type CredentialUse } from '../../lib/webauthn-credential.ts';

/** The SQL of `operators`, `operator_passkeys`, `operator_enrolments` and `operator_sessions` (migration 0021, decision 0032): only the operators module calls it. */

export type OperatorRow = Selectable<OperatorsTable>;
export type OperatorPasskeyRow = Selectable<OperatorPasskeysTable>;
export type OperatorSessionRow = Selectable<OperatorSessionsTable>;

export async function insertOperator(db: Kysely<Database>, row: Insertable<OperatorsTable>): Promise<void> {
  await db.insertInto('operators').values(row).execute();
}

export const operatorByEmail = (db: Kysely<Database>, email: string): Promise<OperatorRow | undefined> =>
  db.selectFrom('operators').selectAll().where('email', '=', email).executeTakeFirst();

export const operatorById = (db: Kysely<Database>, id: string): Promise<OperatorRow | undefined> =>
  db.selectFrom('operators').selectAll().where('id', '=', id).executeTakeFirst();

/** The display names of the operators of `ids` that exist, by id. */
export async function operatorNamesByIds(db: Kysely<Database>, ids: readonly string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db.selectFrom('operators').select(['id', 'display_name']).where('id', 'in', [...ids]).execute();
  return new Map(rows.map((r) => [r.id, r.display_name]));
}

/** Sets an operator's role and status (the bootstrap command makes an existing operator an active administrator). */
export async function setOperatorRoleAndStatus(db: Kysely<Database>, id: string, role: string, status: string): Promise<void> {
  await db.updateTable('operators').set({ role, status }).where('id', '=', id).execute();
}

/** Stores an enrolment link (its token's SHA-256) after using up the operator's live ones: one live link per operator. */
export async function replaceEnrolment(db: Kysely<Database>, row: { id: string; token_hash: string; operator_id: string; created_at: number; expires_at: number }): Promise<void> {
  await db.updateTable('operator_enrolments').set({ used_at: row.created_at }).where('operator_id', '=', row.operator_id).where('used_at', 'is', null).execute();
  await db.insertInto('operator_enrolments').values({ ...row, used_at: null }).execute();
}

/** A live enrolment link (unused, unexpired) by its token's SHA-256, without using it up. */
export const liveEnrolment = (db: Kysely<Database>, tokenHash: string, now: number) =>
  db
    .selectFrom('operator_enrolments')
    .select(['id', 'operator_id'])
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();

/** Uses up a live enrolment link in one conditional update: of parallel uses exactly one gets true. */
export async function useUpEnrolment(db: Kysely<Database>, id: string, now: number): Promise<boolean> {
  const r = await db.updateTable('operator_enrolments').set({ used_at: now }).where('id', '=', id).where('used_at', 'is', null).where('expires_at', '>', now).executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

export async function insertOperatorPasskey(db: Kysely<Database>, row: Insertable<OperatorPasskeysTable>): Promise<void> {
  await db.insertInto('operator_passkeys').values(row).execute();
}

export const operatorPasskeys = (db: Kysely<Database>, operatorId: string): Promise<OperatorPasskeyRow[]> =>
  db.selectFrom('operator_passkeys').selectAll().where('operator_id', '=', operatorId).orderBy('created_at', 'desc').orderBy('id').execute();

export const operatorPasskeyByCredentialId = (db: Kysely<Database>, credentialId: string): Promise<OperatorPasskeyRow | undefined> =>
  db.selectFrom('operator_passkeys').selectAll().where('credential_id', '=', credentialId).executeTakeFirst();

/** Records a use while the stored counter is still the one checked (as passkey-repo.ts's recordPasskeyUse); false: not recorded. */
export async function recordOperatorPasskeyUse(db: Kysely<Database>, use: CredentialUse): Promise<boolean> {
  const r = await db.updateTable('operator_passkeys').set(usedColumns(use)).where('id', '=', use.id).where('counter', '=', use.checkedCounter).executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

export async function insertOperatorSession(db: Kysely<Database>, row: Insertable<OperatorSessionsTable>): Promise<void> {
  await db.insertInto('operator_sessions').values(row).execute();
}

/**
 * Uses a session by its token's SHA-256: in one conditional update, only while it has not ended, is
 * within its absolute limit and was last used less than `idleMs` ago, it is stamped used now. Then its
 * row and its operator's, while the operator is active; undefined for anything else, alike.
 */
export async function useLiveSession(db: Kysely<Database>, tokenHash: string, now: number, idleMs: number) {
  const r = await db
    .updateTable('operator_sessions')
    .set({ last_used_at: now })
    .where('token_hash', '=', tokenHash)
    .where('ended_at', 'is', null)
    .where('expires_at', '>', now)
    .where('last_used_at', '>', now - idleMs)
    .executeTakeFirst();
  if (Number(r.numUpdatedRows) !== 1) return undefined;
  return db
    .selectFrom('operator_sessions as s')
    .innerJoin('operators as o', 'o.id', 's.operator_id')
    .select(['s.id as session_id', 's.created_at as session_created_at', 's.last_used_at', 's.expires_at', 's.proved_at'])
    .select(['o.id', 'o.email', 'o.display_name', 'o.role', 'o.status', 'o.created_at', 'o.created_by'])
    .where('s.token_hash', '=', tokenHash)
    .where('o.status', '=', 'active')
    .executeTakeFirst();
}

export async function markSessionProved(db: Kysely<Database>, sessionId: string, now: number): Promise<boolean> {
  const r = await db.updateTable('operator_sessions').set({ proved_at: now }).where('id', '=', sessionId).where('ended_at', 'is', null).executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

export async function endOperatorSession(db: Kysely<Database>, sessionId: string, now: number): Promise<void> {
  await db.updateTable('operator_sessions').set({ ended_at: now }).where('id', '=', sessionId).where('ended_at', 'is', null).execute();
}
