import type { Kysely, Selectable } from 'kysely';
import type { Database, UsersTable } from '../../db/schema.ts';

export type UserRow = Selectable<UsersTable>;

export const findActiveUserByLoginId = (db: Kysely<Database>, loginId: { email?: string; tel?: string }) =>
  db
    .selectFrom('users')
    .selectAll()
    .where('status', '=', 'active')
    .where(loginId.email !== undefined ? 'email' : 'tel', '=', loginId.email ?? loginId.tel ?? '')
    .executeTakeFirst();

export const findActiveUserById = (db: Kysely<Database>, id: string) =>
  db.selectFrom('users').selectAll().where('id', '=', id).where('status', '=', 'active').executeTakeFirst();

export const acceptedTermVersions = async (db: Kysely<Database>, userId: string) =>
  new Map(
    (await db.selectFrom('term_acceptances').select(['term_key', 'version']).where('user_id', '=', userId).execute()).map(
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

export const hasCards = async (db: Kysely<Database>, userId: string) =>
  (await db.selectFrom('sub_users').select('id').where('user_id', '=', userId).limit(1).executeTakeFirst()) !== undefined;

export const pointBalance = async (db: Kysely<Database>, userId: string, kind: 'open' | 'na') =>
  (await db.selectFrom('point_accounts').select('points').where('user_id', '=', userId).where('kind', '=', kind).executeTakeFirst())
    ?.points ?? 0;

/** Clients the member has signed in to (their token families), for the Top page's service links. */
export const usedClientIds = async (db: Kysely<Database>, userId: string) =>
  (await db.selectFrom('token_families').select('client_id').distinct().where('user_id', '=', userId).execute()).map(
    (r) => r.client_id,
  );
