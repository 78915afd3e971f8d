import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { Background } from '../../lib/background.ts';
import type { Clock } from '../../lib/clock.ts';
import type { Notifier } from '../notifications/notifier.ts';
import type { PasskeyRow } from './passkey-repo.ts';
import { relyingPartyOf, type RelyingParty } from './relying-party.ts';
import type { Passkey } from '@sso/contracts/passkeys';

/** What the passkey services need: the database, the time, the mail, and the relying party of PUBLIC_ORIGIN. */
export interface PasskeyDeps {
  db: Kysely<Database>;
  clock: Clock;
  notifier: Notifier;
  background: Background;
  issuer: string;
}

const parties = new Map<string, RelyingParty>();
/** The relying party of the issuer, worked out once. */
export const rpOf = (deps: Pick<PasskeyDeps, 'issuer'>): RelyingParty => {
  let rp = parties.get(deps.issuer);
  if (!rp) parties.set(deps.issuer, (rp = relyingPartyOf(deps.issuer)));
  return rp;
};

/** A passkey as the settings list it (packages/contracts/src/passkeys.ts). */
export const passkeyView = (row: PasskeyRow): Passkey => ({
  id: row.id,
  name: row.name,
  created_at: Number(row.created_at),
  last_used_at: row.last_used_at === null ? null : Number(row.last_used_at),
  synced: Number(row.backed_up) === 1,
});
