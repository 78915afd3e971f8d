import type { Kysely, Selectable } from 'kysely';
import type { Database, UsersTable } from '../../db/schema.ts';
import { insertMember, NO_PROFILE } from '../account/member-repo.ts';
import { insertMemberCard, type NewSubuser } from '../cards/card-repo.ts';

/**
 * Creates the card member and links the card as its first sub-user (SPEC.md section 4), in the
 * caller's transaction: each row is written by the module that owns its table.
 */
export async function insertCardMember(
  db: Kysely<Database>,
  user: Pick<Selectable<UsersTable>, 'id' | 'email' | 'tel' | 'password_hash'>,
  card: NewSubuser,
  now: number,
): Promise<void> {
  await insertMember(
    db,
    {
      ...user,
      member_type: 'card',
      ...NO_PROFILE,
    },
    now,
  );
  await insertMemberCard(db, user.id, card, now);
}
