import { sql, type Kysely } from 'kysely';

/**
 * The login mobile number apart from the profile's phone (docs/decisions/0014-proof-where-accounts-join.md).
 * `users.tel` stays the login mobile number (unique, as before) and from now on holds only a number
 * proven by an SMS code; the profile's phone moves to the new `users.profile_tel`, which is no login
 * id and not unique. Existing rows: an open member's phone is copied to `profile_tel`; every `tel`
 * stays a login id, so that every member still logs in with the number they use today
 * (docs/operations.md, "Upgrade to 0013").
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').addColumn('profile_tel', 'text').execute();
  await sql`UPDATE users SET profile_tel = tel WHERE member_type = 'open' AND status = 'active'`.execute(db);
}
