import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

/** The profile columns of users an open member may change (SPEC.md section 3, "Profile"). */
export interface ProfileColumns {
  last_name: string;
  first_name: string;
  last_name_kana: string;
  first_name_kana: string;
  sex: string;
  profile_tel: string;
  postal_code: string;
  email_flg: number;
}

/** Writes the profile of an active member. */
export async function updateProfile(db: Kysely<Database>, userId: string, profile: ProfileColumns, now: number): Promise<void> {
  await db
    .updateTable('users')
    .set({ ...profile, updated_at: now })
    .where('id', '=', userId)
    .where('status', '=', 'active')
    .execute();
}
