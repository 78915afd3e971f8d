import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

/**
 * The upgrade of an open member to a card member (docs/decisions/0006): SQL only. The card's row is
 * written by cards/card-repo.ts insertMemberCard, as a card add writes it.
 */

/**
 * Makes an active open member a card member in one conditional update; false when the member is no
 * longer an active open member. The open points (point_accounts) are not touched: they stay.
 */
export async function promoteToCardMember(db: Kysely<Database>, userId: string, now: number): Promise<boolean> {
  const r = await db
    .updateTable('users')
    .set({ member_type: 'card', updated_at: now })
    .where('id', '=', userId)
    .where('status', '=', 'active')
    .where('member_type', '=', 'open')
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}
