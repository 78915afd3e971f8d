import type { Kysely, Selectable } from 'kysely';
import { preparedQuery } from '../../db/prepared-query.ts';
import type { AuthCodesTable, Database } from '../../db/schema.ts';

export type AuthCodeRow = Selectable<AuthCodesTable>;

// Compiled once (prepared-query.ts): every login writes a code. Every column listed (`satisfies`): a column added later fails to compile, not left out.
const codeInsert = preparedQuery((db, p: AuthCodeRow) =>
  db.insertInto('auth_codes').values({
    code_hash: p.code_hash,
    client_id: p.client_id,
    redirect_uri: p.redirect_uri,
    code_challenge: p.code_challenge,
    user_id: p.user_id,
    scope: p.scope,
    created_at: p.created_at,
    expires_at: p.expires_at,
    consumed_at: p.consumed_at,
    family_id: p.family_id,
    proved_at: p.proved_at,
    auth_time: p.auth_time,
    amr: p.amr,
    nonce: p.nonce,
    sso_session_id: p.sso_session_id,
    dpop_jkt: p.dpop_jkt,
  } satisfies Record<keyof AuthCodeRow, unknown>),
);

export async function insertCode(db: Kysely<Database>, row: AuthCodeRow): Promise<void> {
  await codeInsert(db, row);
}

// Compiled once (prepared-query.ts), as the insert: every code exchange looks its code up and uses it.
const codeUse = preparedQuery((db, p: { codeHash: string; familyId: string; now: number }) =>
  db.updateTable('auth_codes').set({ consumed_at: p.now, family_id: p.familyId }).where('code_hash', '=', p.codeHash).where('consumed_at', 'is', null).returningAll(),
);
const codeByHash = preparedQuery((db, p: { codeHash: string }) => db.selectFrom('auth_codes').selectAll().where('code_hash', '=', p.codeHash));

/**
 * Consumes a code in one conditional update: of two concurrent redemptions exactly one gets the row.
 * The family id of the tokens about to be issued is written in the same statement, so that a later
 * replay can find and revoke them.
 */
export const consumeCode = async (db: Kysely<Database>, codeHash: string, familyId: string, now: number): Promise<AuthCodeRow | undefined> =>
  (await codeUse(db, { codeHash, familyId, now })).rows[0];

export const findCode = async (db: Kysely<Database>, codeHash: string): Promise<AuthCodeRow | undefined> => (await codeByHash(db, { codeHash })).rows[0];


/** Uses up the member's codes not yet exchanged, so that none yields a token (modules/sessions/end-sessions.ts); returns how many. */
export async function useUpMemberCodes(db: Kysely<Database>, userId: string, now: number): Promise<number> {
  const r = await db.updateTable('auth_codes').set({ consumed_at: now }).where('user_id', '=', userId).where('consumed_at', 'is', null).executeTakeFirst();
  return Number(r.numUpdatedRows);
}

/** Uses up a client's codes not yet exchanged, of every member (a disabled client, decision 0031); returns how many. */
export async function useUpClientCodes(db: Kysely<Database>, clientId: string, now: number): Promise<number> {
  const r = await db.updateTable('auth_codes').set({ consumed_at: now }).where('client_id', '=', clientId).where('consumed_at', 'is', null).executeTakeFirst();
  return Number(r.numUpdatedRows);
}
