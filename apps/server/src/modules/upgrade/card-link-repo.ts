import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

/**
 * An open member's card (docs/decisions/0006 and 0016): SQL only. The card's row is written by
 * cards/card-repo.ts insertMemberCard, as a card add writes it.
 */

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
