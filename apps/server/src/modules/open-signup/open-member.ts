import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { insertOpenAccount } from '../../ports/point-ledger-repo.ts';
import { insertMember } from '../account/member-repo.ts';
import { recordTermAcceptance } from '../account/user-repo.ts';
import type { PendingRow } from './pending-repo.ts';

/**
 * Creates the open member of an activated sign-up: the account with the profile entered,
 * the terms accepted at sign-up, and an open point account with no points.
 */
export async function insertOpenMember(
  db: Kysely<Database>,
  p: { id: string; pending: PendingRow; terms: { key: string; version: string }[]; now: number },
): Promise<void> {
  const { pending, now } = p;
  await insertMember(
    db,
    {
      id: p.id,
      email: pending.email,
      // The phone entered is the profile's, no login id until an SMS code proves it (decision 0014).
      tel: null,
      profile_tel: pending.tel,
      password_hash: pending.password_hash,
      member_type: 'open',
      last_name: pending.last_name,
      first_name: pending.first_name,
      last_name_kana: pending.last_name_kana,
      first_name_kana: pending.first_name_kana,
      sex: pending.sex,
      birthday: pending.birthday,
      postal_code: pending.postal_code,
      email_flg: pending.email_flg,
    },
    now,
  );
  for (const t of p.terms) await recordTermAcceptance(db, p.id, t.key, t.version, now);
  await insertOpenAccount(db, p.id, 0, now);
}
