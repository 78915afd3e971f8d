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
const termVersions = preparedQuery((db, p: { userId: string }) => db.selectFrom('term_acceptances').select(['term_key', 'version']).where('user_id', '=', p.userId));

export const findActiveUserByLoginId = async (db: Kysely<Database>, loginId: { email?: string; tel?: string }): Promise<UserRow | undefined> =>
  loginId.email !== undefined ? (await activeByEmail(db, { id: loginId.email })).rows[0] : (await activeByTel(db, { id: loginId.tel ?? '' })).rows[0];

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
