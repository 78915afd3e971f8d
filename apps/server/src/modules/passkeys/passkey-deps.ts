import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { Clock } from '../../lib/clock.ts';
import type { Notifier } from '../notifications/notifier.ts';
import type { PasskeyRow } from './passkey-repo.ts';
import { relyingPartyOf, type RelyingParty } from './relying-party.ts';
import { OK_RESPONSE } from '@sso/contracts/common';
import type { CeremonyOptionsResponse, Passkey } from '@sso/contracts/passkeys';

/** What the passkey services need: the database, the time, the mail, and the relying party of PUBLIC_ORIGIN. */
export interface PasskeyDeps {
  db: Kysely<Database>;
  clock: Clock;
  notifier: Notifier;
  issuer: string;
}

/** The relying party of the issuer (PUBLIC_ORIGIN). */
export const rpOf = (deps: Pick<PasskeyDeps, 'issuer'>): RelyingParty => relyingPartyOf(deps.issuer);

/** The answer of a passkey endpoint that went through (SPEC.md section 3: result 0). */

/** A ceremony's options as the browser library takes them (`optionsJSON`), in the answer that carries them. */
export const ceremonyOptions = (options: object): CeremonyOptionsResponse => ({ ...OK_RESPONSE, options: options as Record<string, unknown> });

/** A passkey as the settings list it (packages/contracts/src/passkeys.ts). */
export const passkeyView = (row: PasskeyRow): Passkey => ({
  id: row.id,
  name: row.name,
  created_at: Number(row.created_at),
  last_used_at: row.last_used_at === null ? null : Number(row.last_used_at),
  synced: Number(row.backed_up) === 1,
});
