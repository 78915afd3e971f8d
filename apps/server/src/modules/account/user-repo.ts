import type { Kysely, Selectable } from 'kysely';
import { preparedQuery } from '../../db/prepared-query.ts';
import type { Database, UsersTable } from '../../db/schema.ts';

export type UserRow = Selectable<UsersTable>;

// The lookups of every login and of every member's request, compiled once (prepared-query.ts).
const activeBy = (column: 'email' | 'tel' | 'id') =>
  preparedQuery((db, p: { id: string }) => db.selectFrom('users').selectAll().where('status', '=', 'active').where(column, '=', p.id));
const activeByEmail = activeBy('email');
const activeByTel = activeBy('tel');
const activeById = activeBy('id');
// The login's lookup: an active member, or a suspended one (whose right password is told whom to contact).
const signInBy = (column: 'email' | 'tel') =>
  preparedQuery((db, p: { id: string }) => db.selectFrom('users').selectAll().where('status', 'in', ['active', 'suspended']).where(column, '=', p.id));
const signInByEmail = signInBy('email');
const signInByTel = signInBy('tel');
const termVersions = preparedQuery((db, p: { userId: string }) => db.selectFrom('term_acceptances').select(['term_key', 'version']).where('user_id', '=', p.userId));

export const findActiveUserByLoginId = async (db: Kysely<Database>, loginId: { email?: string; tel?: string }): Promise<UserRow | undefined> =>
  loginId.email !== undefined ? (await activeByEmail(db, { id: loginId.email })).rows[0] : (await activeByTel(db, { id: loginId.tel ?? '' })).rows[0];

/**
 * The member a login id names, active or suspended (migration 0022): the password check counts and
 * hashes alike for both, and only a right password learns of the suspension (credentials-service.ts).
 */
export const findSignInUserByLoginId = async (db: Kysely<Database>, loginId: { email?: string; tel?: string }): Promise<UserRow | undefined> =>
  loginId.email !== undefined ? (await signInByEmail(db, { id: loginId.email })).rows[0] : (await signInByTel(db, { id: loginId.tel ?? '' })).rows[0];

export const findActiveUserById = async (db: Kysely<Database>, id: string): Promise<UserRow | undefined> => (await activeById(db, { id })).rows[0];

export const acceptedTermVersions = async (db: Kysely<Database>, userId: string) =>
  new Map(
    (await termVersions(db, { userId })).rows.map(
      (r) => [r.term_key, r.version],
    ),
  );

export async function recordTermAcceptance(db: Kysely<Database>, userId: string, key: string, version: string, now: number) {
  await db
    .insertInto('term_acceptances')
    .values({ user_id: userId, term_key: key, version, accepted_at: now })
    .onConflict((oc) => oc.columns(['user_id', 'term_key']).doUpdateSet({ version, accepted_at: now }))
    .execute();
}

/** Which of these members exist, withdrawn ones included (the demo seed leaves them as they are). */
export const existingUserIds = async (db: Kysely<Database>, ids: readonly string[]) =>
  new Set((await db.selectFrom('users').select('id').where('id', 'in', [...ids]).execute()).map((r) => r.id));

/** A member of any status, withdrawn and suspended ones included (the operators' member page). */
export const findUserById = (db: Kysely<Database>, id: string): Promise<UserRow | undefined> =>
  db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();

/**
 * The operators' member search (modules/support/): members of any status whose e-mail, login or
 * profile mobile number, or id is the one given, or (`ids` with `birthday`) whose id is one of those
 * and whose birthday is that one. At most `limit`, newest first.
 */
export async function searchUsers(
  db: Kysely<Database>,
  by: { email: string } | { tel: string } | { id: string } | { ids: readonly string[]; birthday: string } | { ids: readonly string[]; memberType: 'card' | 'open' },
  limit: number,
): Promise<UserRow[]> {
  let q = db.selectFrom('users').selectAll();
  if ('email' in by) q = q.where('email', '=', by.email);
  else if ('tel' in by) q = q.where((eb) => eb.or([eb('tel', '=', by.tel), eb('profile_tel', '=', by.tel)]));
  else if ('id' in by) q = q.where('id', '=', by.id);
  else if (by.ids.length === 0) return [];
  else if ('birthday' in by) q = q.where('id', 'in', [...by.ids]).where('birthday', '=', by.birthday);
  else q = q.where('id', 'in', [...by.ids]).where('member_type', '=', by.memberType);
  return q.orderBy('created_at', 'desc').orderBy('id').limit(limit).execute();
}
