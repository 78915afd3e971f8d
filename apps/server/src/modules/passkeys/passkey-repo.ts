import type { Insertable, Kysely, Selectable } from 'kysely';
import type { Database, PasskeysTable } from '../../db/schema.ts';
import { usedColumns, type CredentialUse } from '../../lib/webauthn-credential.ts';

/** The SQL of `passkeys` (decision 0024): only the passkeys module calls it. */

export type PasskeyRow = Selectable<PasskeysTable>;

export async function insertPasskey(db: Kysely<Database>, row: Insertable<PasskeysTable>): Promise<void> {
  await db.insertInto('passkeys').values(row).execute();
}

/** The member's passkeys, newest first. */
export const memberPasskeys = (db: Kysely<Database>, userId: string): Promise<PasskeyRow[]> =>
  db.selectFrom('passkeys').selectAll().where('user_id', '=', userId).orderBy('created_at', 'desc').orderBy('id').execute();

export const countMemberPasskeys = async (db: Kysely<Database>, userId: string): Promise<number> =>
  Number((await db.selectFrom('passkeys').select((eb) => eb.fn.countAll().as('n')).where('user_id', '=', userId).executeTakeFirstOrThrow()).n);

/** A passkey by its credential id (base64url), whoever's it is. */
export const passkeyByCredentialId = (db: Kysely<Database>, credentialId: string): Promise<PasskeyRow | undefined> =>
  db.selectFrom('passkeys').selectAll().where('credential_id', '=', credentialId).executeTakeFirst();

/** One of the member's passkeys; another member's, or none, is undefined alike. */
export const memberPasskey = (db: Kysely<Database>, userId: string, id: string): Promise<PasskeyRow | undefined> =>
  db.selectFrom('passkeys').selectAll().where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();

export const passkeyById = (db: Kysely<Database>, id: string): Promise<PasskeyRow | undefined> =>
  db.selectFrom('passkeys').selectAll().where('id', '=', id).executeTakeFirst();

/**
 * Records a use: the new signature counter and backup state, only while the stored counter is still
 * the one the assertion was checked against, so that of two parallel uses of a counting authenticator
 * at most one moves it (a cloned authenticator racing its original is refused). False: not recorded.
 */
export async function recordPasskeyUse(db: Kysely<Database>, use: CredentialUse): Promise<boolean> {
  const r = await db.updateTable('passkeys').set(usedColumns(use)).where('id', '=', use.id).where('counter', '=', use.checkedCounter).executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

export async function renamePasskey(db: Kysely<Database>, userId: string, id: string, name: string): Promise<boolean> {
  const r = await db.updateTable('passkeys').set({ name }).where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** Deletes one passkey of the member; false when it was not theirs or is gone already. */
export async function deletePasskey(db: Kysely<Database>, userId: string, id: string): Promise<boolean> {
  const r = await db.deleteFrom('passkeys').where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
  return Number(r.numDeletedRows) === 1;
}

/** Deletes every passkey of the member (a withdrawal): the credentials sign in no one any more. */
export async function deleteMemberPasskeys(db: Kysely<Database>, userId: string): Promise<void> {
  await db.deleteFrom('passkeys').where('user_id', '=', userId).execute();
}
