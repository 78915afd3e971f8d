import type { Kysely, Selectable } from 'kysely';
import type { Database, SubUsersTable, UsersTable } from '../../db/schema.ts';

/** Creates the card member and links the card as its first sub-user (issue 3). */
export async function insertCardMember(
  db: Kysely<Database>,
  user: Pick<Selectable<UsersTable>, 'id' | 'email' | 'tel' | 'password_hash'>,
  card: Omit<Selectable<SubUsersTable>, 'user_id' | 'created_at' | 'status'>,
  now: number,
): Promise<void> {
  await db
    .insertInto('users')
    .values({
      ...user,
      member_type: 'card',
      status: 'active',
      last_name: null,
      first_name: null,
      last_name_kana: null,
      first_name_kana: null,
      sex: null,
      birthday: null,
      postal_code: null,
      email_flg: 0,
      created_at: now,
      updated_at: now,
    })
    .execute();
  await db.insertInto('sub_users').values({ ...card, user_id: user.id, status: 'active', created_at: now }).execute();
}

/**
 * The column of a unique violation (users.email, users.tel, sub_users.esid), or undefined for any
 * other error: SQLite names it in the message, PostgreSQL in the detail.
 */
export function uniqueViolation(err: unknown): string | undefined {
  const e = err as { code?: unknown; message?: unknown; detail?: unknown };
  if (e?.code === '23505') return /^Key \(([a-z_]+)\)/.exec(String(e.detail ?? ''))?.[1] ?? 'unknown';
  if (typeof e?.code === 'string' && e.code.startsWith('SQLITE_CONSTRAINT')) {
    return /UNIQUE constraint failed: \w+\.(\w+)/.exec(String(e.message ?? ''))?.[1];
  }
  return undefined;
}
