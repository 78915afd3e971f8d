import type { Kysely, Selectable } from 'kysely';
import type { Database, OpenSignupsTable } from '../../db/schema.ts';

export type PendingRow = Selectable<OpenSignupsTable>;

/**
 * Writes the pending sign-up of an e-mail, replacing an earlier one of the same e-mail in one
 * upsert (race-free on both databases). The row takes the new id, so the earlier link, whose
 * verification names the earlier id, leads nowhere. Returns the ids it replaced.
 */
export async function replacePending(db: Kysely<Database>, row: PendingRow): Promise<string[]> {
  const earlier = await db.selectFrom('open_signups').select('id').where('email', '=', row.email).execute();
  await db
    .insertInto('open_signups')
    .values(row)
    .onConflict((oc) =>
      oc.column('email').doUpdateSet((eb) => ({
        id: eb.ref('excluded.id'),
        tel: eb.ref('excluded.tel'),
        last_name: eb.ref('excluded.last_name'),
        first_name: eb.ref('excluded.first_name'),
        last_name_kana: eb.ref('excluded.last_name_kana'),
        first_name_kana: eb.ref('excluded.first_name_kana'),
        sex: eb.ref('excluded.sex'),
        birthday: eb.ref('excluded.birthday'),
        postal_code: eb.ref('excluded.postal_code'),
        email_flg: eb.ref('excluded.email_flg'),
        password_hash: eb.ref('excluded.password_hash'),
        client_ids: eb.ref('excluded.client_ids'),
        created_at: eb.ref('excluded.created_at'),
        expires_at: eb.ref('excluded.expires_at'),
      })),
    )
    .execute();
  return earlier.map((r) => r.id).filter((id) => id !== row.id);
}

/** Takes a live pending sign-up out of the table (the activation uses it up); undefined if it is gone or expired. */
export const takePending = (db: Kysely<Database>, id: string, now: number) =>
  db.deleteFrom('open_signups').where('id', '=', id).where('expires_at', '>', now).returningAll().executeTakeFirst();

export async function deletePending(db: Kysely<Database>, id: string): Promise<void> {
  await db.deleteFrom('open_signups').where('id', '=', id).execute();
}

/** The live pending sign-up of an e-mail, if any (the operators' "resend the activation mail"). */
export const livePendingByEmail = (db: Kysely<Database>, email: string, now: number): Promise<PendingRow | undefined> =>
  db.selectFrom('open_signups').selectAll().where('email', '=', email).where('expires_at', '>', now).executeTakeFirst();
