import type { Kysely, Selectable, Updateable } from 'kysely';
import { preparedQuery } from '../../db/prepared-query.ts';
import type { Database, SubUsersTable } from '../../db/schema.ts';

export type CardRow = Selectable<SubUsersTable>;

/** A sub-user row but its owner and time. */
export type NewSubuser = Omit<Selectable<SubUsersTable>, 'user_id' | 'created_at'>;

// Read by the card list and by every step that checks the member's cards, compiled once (prepared-query.ts).
const memberCards = preparedQuery((db, p: { userId: string }) =>
  db.selectFrom('sub_users').selectAll().where('user_id', '=', p.userId).orderBy('created_at').orderBy('id'),
);

/** The member's registered cards, oldest first (the order they were added in). */
export const listMemberCards = async (db: Kysely<Database>, userId: string): Promise<CardRow[]> => (await memberCards(db, { userId })).rows;

/**
 * One card of the member (decision 0006, "Cards"): looked up by id AND owner, so that another
 * member's card and no card at all are the same undefined.
 */
export const findMemberCard = (db: Kysely<Database>, userId: string, subuserId: string) =>
  db.selectFrom('sub_users').selectAll().where('id', '=', subuserId).where('user_id', '=', userId).executeTakeFirst();

/** Whether the member has registered any card. */
export const hasCards = async (db: Kysely<Database>, userId: string) =>
  (await db.selectFrom('sub_users').select('id').where('user_id', '=', userId).limit(1).executeTakeFirst()) !== undefined;

/** Whether a card (its card-master esid) is linked to a member already. */
export const cardLinked = async (db: Kysely<Database>, esid: string) =>
  (await db.selectFrom('sub_users').select('id').where('esid', '=', esid).executeTakeFirst()) !== undefined;

/** Which of these card-master esids are registered to any member. */
export async function registeredEsids(db: Kysely<Database>, esids: readonly string[]): Promise<Set<string>> {
  if (esids.length === 0) return new Set();
  const rows = await db.selectFrom('sub_users').select('esid').where('esid', 'in', [...esids]).execute();
  return new Set(rows.map((r) => r.esid));
}

/**
 * Registers a card to the member. sub_users.esid is unique: of parallel adds of one card exactly one
 * inserts, the others fail with a unique violation of esid (the caller answers "already linked").
 */
export async function insertMemberCard(db: Kysely<Database>, userId: string, card: NewSubuser, now: number): Promise<void> {
  await db.insertInto('sub_users').values({ ...card, user_id: userId, created_at: now }).execute();
}

/** The member's cards of these ids (another member's are not among them). */
export const findMemberCards = (db: Kysely<Database>, userId: string, subuserIds: readonly string[]) =>
  db.selectFrom('sub_users').selectAll().where('user_id', '=', userId).where('id', 'in', [...subuserIds]).execute();

/** Updates the member's card (never another member's); false when the member has no such card. */
export async function updateMemberCard(
  db: Kysely<Database>,
  userId: string,
  subuserId: string,
  set: Updateable<Omit<SubUsersTable, 'id' | 'user_id' | 'esid' | 'created_at'>>,
): Promise<boolean> {
  const r = await db.updateTable('sub_users').set(set).where('id', '=', subuserId).where('user_id', '=', userId).executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/**
 * Removes the member's active cards of these ids (SPEC.md section 4: only active cards can be
 * removed) and answers how many went; the caller's transaction rolls back when that is not all.
 */
export async function deleteActiveMemberCards(db: Kysely<Database>, userId: string, subuserIds: readonly string[]): Promise<number> {
  const r = await db
    .deleteFrom('sub_users')
    .where('user_id', '=', userId)
    .where('status', '=', 'active')
    .where('id', 'in', [...subuserIds])
    .executeTakeFirst();
  return Number(r.numDeletedRows);
}

/** Ends the links between the ID and all its cards (SPEC.md section 4: a withdrawal). */
export async function deleteMemberCards(db: Kysely<Database>, userId: string): Promise<void> {
  await db.deleteFrom('sub_users').where('user_id', '=', userId).execute();
}

/** The member's card that may receive points (decision 0006, "Transfer"): active and point-capable. */
export const findPointCard = (db: Kysely<Database>, userId: string, subuserId: string) =>
  db
    .selectFrom('sub_users')
    .select(['id', 'esid', 'card_name', 'card_number_mask'])
    .where('id', '=', subuserId)
    .where('user_id', '=', userId)
    .where('status', '=', 'active')
    .where('point_capable', '=', 1)
    .executeTakeFirst();

/** Whether the member has registered a point-capable card (SPEC.md section 3, is_na_point). */
export const hasPointCard = async (db: Kysely<Database>, userId: string) =>
  (await db.selectFrom('sub_users').select('id').where('user_id', '=', userId).where('point_capable', '=', 1).limit(1).executeTakeFirst()) !==
  undefined;

/**
 * The esid of the member's most recently registered active card (decision 0020: the card a portal app
 * returns to after a login), or undefined when the member holds no active card.
 */
export async function newestActiveEsid(db: Kysely<Database>, userId: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('sub_users')
    .select('esid')
    .where('user_id', '=', userId)
    .where('status', '=', 'active')
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row?.esid;
}

/** The members holding these cards (by the card master's esids): the operators' card search. */
export async function memberIdsByEsids(db: Kysely<Database>, esids: readonly string[]): Promise<string[]> {
  if (esids.length === 0) return [];
  return (await db.selectFrom('sub_users').select('user_id').distinct().where('esid', 'in', [...esids]).execute()).map((r) => r.user_id);
}

/** The members holding a card whose number ends in these four digits (card_number_mask keeps them): the operators' search. */
export async function cardsByEnding(db: Kysely<Database>, lastFour: string, limit: number): Promise<{ user_id: string; esid: string }[]> {
  if (!/^\d{4}$/.test(lastFour)) return [];
  return db.selectFrom('sub_users').select(['user_id', 'esid']).where('card_number_mask', 'like', `%${lastFour}`).orderBy('created_at', 'desc').orderBy('id').limit(limit).execute();
}
