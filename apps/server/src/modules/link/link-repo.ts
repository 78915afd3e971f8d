import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

/** The open-account link (decision 0006): SQL only. */

/** The active open member who logs in with this e-mail (stored in lower case), with what the link compares. */
export const findActiveOpenMember = (db: Kysely<Database>, email: string) =>
  db
    .selectFrom('users')
    .select(['id', 'email', 'tel', 'last_name_kana', 'first_name_kana', 'birthday'])
    .where('email', '=', email)
    .where('status', '=', 'active')
    .where('member_type', '=', 'open')
    .executeTakeFirst();
