import type { Kysely, Selectable } from 'kysely';
import type { Database, SubUsersTable, UsersTable } from '../../db/schema.ts';
import { insertMember } from '../account/member-repo.ts';

/** Creates the card member and links the card as its first sub-user (issue 3). */
export async function insertCardMember(
  db: Kysely<Database>,
  user: Pick<Selectable<UsersTable>, 'id' | 'email' | 'tel' | 'password_hash'>,
  card: Omit<Selectable<SubUsersTable>, 'user_id' | 'created_at' | 'status'>,
  now: number,
): Promise<void> {
  await insertMember(
    db,
    {
      ...user,
      member_type: 'card',
      last_name: null,
      first_name: null,
      last_name_kana: null,
      first_name_kana: null,
      sex: null,
      birthday: null,
      postal_code: null,
      email_flg: 0,
    },
    now,
  );
  await db.insertInto('sub_users').values({ ...card, user_id: user.id, status: 'active', created_at: now }).execute();
}
