import type { Insertable, Kysely } from 'kysely';
import type { Database, UsersTable } from '../../db/schema.ts';

/** A new member's row: every column but the status (active) and the times (now). */
export type NewMember = Omit<Insertable<UsersTable>, 'status' | 'created_at' | 'updated_at'>;

/** Creates an active member (the card sign-up, decision 0004; the open sign-up, decision 0005). */
/** The profile of a member who has none (a card member) or no longer has one (withdrawn). */
export const NO_PROFILE = {
  last_name: null,
  first_name: null,
  last_name_kana: null,
  first_name_kana: null,
  sex: null,
  birthday: null,
  postal_code: null,
  profile_tel: null,
  email_flg: 0,
} as const;

export async function insertMember(db: Kysely<Database>, member: NewMember, now: number): Promise<void> {
  await db
    .insertInto('users')
    .values({ ...member, status: 'active', created_at: now, updated_at: now })
    .execute();
}

/** Any account with this e-mail, withdrawn ones included (users.email is unique). */
export const emailInUse = async (db: Kysely<Database>, email: string) =>
  (await db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst()) !== undefined;

/** Any account's login mobile number (users.tel is unique; withdrawn accounts have none). */
export const telInUse = async (db: Kysely<Database>, tel: string) =>
  (await db.selectFrom('users').select('id').where('tel', '=', tel).executeTakeFirst()) !== undefined;

/** Makes a proven number the active member's login mobile number (decision 0014); unique, so a taken one throws. */
export async function setLoginTel(db: Kysely<Database>, userId: string, tel: string, now: number): Promise<boolean> {
  const r = await db.updateTable('users').set({ tel, updated_at: now }).where('id', '=', userId).where('status', '=', 'active').executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** Sets a member's password hash (argon2id). */
export async function setPasswordHash(db: Kysely<Database>, userId: string, passwordHash: string, now: number): Promise<void> {
  await db.updateTable('users').set({ password_hash: passwordHash, updated_at: now }).where('id', '=', userId).execute();
}
