import type { Kysely, Selectable } from 'kysely';
import type { Database, SubUsersTable, UsersTable } from '../../db/schema.ts';
import { insertMember, NO_PROFILE } from '../account/member-repo.ts';

/** Creates the card member and links the card as its first sub-user (SPEC.md section 4). */
export async function insertCardMember(
  db: Kysely<Database>,
  user: Pick<Selectable<UsersTable>, 'id' | 'email' | 'tel' | 'password_hash'>,
  card: Omit<Selectable<SubUsersTable>, 'user_id' | 'created_at'>,
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
  await db.insertInto('sub_users').values({ ...card, user_id: user.id, created_at: now }).execute();
}
