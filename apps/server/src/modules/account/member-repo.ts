import type { Insertable, Kysely } from 'kysely';
import type { Database, UsersTable } from '../../db/schema.ts';

/** A new member's row: every column but the status (active) and the times (now). */
export type NewMember = Omit<Insertable<UsersTable>, 'status' | 'created_at' | 'updated_at'>;

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

const activeRow = (member: NewMember, now: number) => ({ ...member, status: 'active' as const, created_at: now, updated_at: now });

/** Creates an active member (the card sign-up, decision 0004; the open sign-up, decision 0005). */
export async function insertMember(db: Kysely<Database>, member: NewMember, now: number): Promise<void> {
  await db
    .insertInto('users')
    .values(activeRow(member, now))
    .execute();
}

/**
 * Creates an active member unless one of its id exists (the demo seed); whether it was created. Nodes
 * starting together seed at once: PostgreSQL makes this insert wait for the other node's, and when
 * that one is committed, nothing is inserted and the rest is left to it.
 */
export async function insertMemberOnce(db: Kysely<Database>, member: NewMember, now: number): Promise<boolean> {
  const inserted = await db
    .insertInto('users')
    .values(activeRow(member, now))
    .onConflict((oc) => oc.doNothing())
    .returning('id')
    .executeTakeFirst();
  return inserted !== undefined;
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

/** Sets the active member's e-mail (a finished e-mail change). */
export async function setMemberEmail(db: Kysely<Database>, userId: string, email: string, now: number): Promise<void> {
  await db.updateTable('users').set({ email, updated_at: now }).where('id', '=', userId).where('status', '=', 'active').execute();
}

/** Replaces the hash only if it is still the one that was checked, so that of parallel changes one wins. */
export async function replacePasswordHash(
  db: Kysely<Database>,
  p: { userId: string; checkedHash: string; newHash: string; now: number },
): Promise<boolean> {
  const r = await db
    .updateTable('users')
    .set({ password_hash: p.newHash, updated_at: p.now })
    .where('id', '=', p.userId)
    .where('status', '=', 'active')
    .where('password_hash', '=', p.checkedHash)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/**
 * Withdraws an active member in one conditional update (docs/withdrawal.md): the e-mail becomes
 * `<id>@withdrawn.invalid` and the phone, profile and password go, so that the address and the
 * number are free for a new sign-up and nobody can log in. False when the member was not active.
 */
export async function markWithdrawn(db: Kysely<Database>, userId: string, now: number): Promise<boolean> {
  const r = await db
    .updateTable('users')
    .set({
      status: 'withdrawn',
      email: `${userId}@withdrawn.invalid`,
      tel: null,
      // Not an argon2 hash: no password verifies against it.
      password_hash: 'withdrawn',
      ...NO_PROFILE,
      updated_at: now,
    })
    .where('id', '=', userId)
    .where('status', '=', 'active')
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/**
 * Claims an active open member for the card about to be linked, in one conditional update (inside
 * the transaction that links it); false when the member is no longer an active open member. The
 * member stays an open member (docs/decisions/0016): member_type, the profile and the open points
 * (point_accounts) are not touched, so that they can merge those points into the card.
 */
export async function claimOpenMember(db: Kysely<Database>, userId: string, now: number): Promise<boolean> {
  const r = await db
    .updateTable('users')
    .set({ updated_at: now })
    .where('id', '=', userId)
    .where('status', '=', 'active')
    .where('member_type', '=', 'open')
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** Whether only a passkey proves a sensitive change for the member (decision 0024). */
export async function setRequirePasskey(db: Kysely<Database>, userId: string, required: boolean, now: number): Promise<void> {
  await db.updateTable('users').set({ require_passkey: required ? 1 : 0, updated_at: now }).where('id', '=', userId).execute();
}

/**
 * Suspends an active member (an operator's action; migration 0022): status 'suspended', so that every
 * lookup of an active member (login, refresh, Bearer, SSO session, passkey) finds none. False when the
 * member was not active (already suspended, withdrawn, unknown).
 */
export async function markSuspended(db: Kysely<Database>, userId: string, now: number): Promise<boolean> {
  const r = await db
    .updateTable('users')
    .set({ status: 'suspended', suspended_at: now, updated_at: now })
    .where('id', '=', userId)
    .where('status', '=', 'active')
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** Restores a suspended member to active; false when the member was not suspended. */
export async function markRestored(db: Kysely<Database>, userId: string, now: number): Promise<boolean> {
  const r = await db
    .updateTable('users')
    .set({ status: 'active', suspended_at: null, updated_at: now })
    .where('id', '=', userId)
    .where('status', '=', 'suspended')
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}
