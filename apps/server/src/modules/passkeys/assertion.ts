import type { Kysely } from 'kysely';
import { verifyAuthenticationResponse, type AuthenticationResponseJSON } from '@simplewebauthn/server';
import { isoBase64URL } from '@simplewebauthn/server/helpers';
import type { Database } from '../../db/schema.ts';
import { recordPasskeyUse, type PasskeyRow } from './passkey-repo.ts';
import type { RelyingParty } from './relying-party.ts';

export const transportsOf = (row: Pick<PasskeyRow, 'transports'>): string[] => {
  try {
    const parsed: unknown = JSON.parse(row.transports);
    return Array.isArray(parsed) ? parsed.filter((t): t is string => typeof t === 'string') : [];
  } catch {
    return [];
  }
};

/**
 * Checks an assertion of one of the member's passkeys over a challenge just used up (decision 0024),
 * with @simplewebauthn/server: the signature by the stored public key, the origin and relying party id
 * (relying-party.ts), user verification, and a signature counter that moved forward when either side
 * counts. Then, beyond the library: the credential's backup eligibility (its device type) never
 * changes, and the use is recorded only while the stored counter is the one checked, so that two
 * parallel uses of a counting authenticator cannot both pass. True: the member's authenticator signed.
 */
export async function checkAssertion(
  deps: { db: Kysely<Database>; rp: RelyingParty },
  p: { answer: AuthenticationResponseJSON; challenge: string; passkey: PasskeyRow; now: number },
): Promise<boolean> {
  const counter = Number(p.passkey.counter);
  let info;
  try {
    const verified = await verifyAuthenticationResponse({
      response: p.answer,
      expectedChallenge: p.challenge,
      expectedOrigin: deps.rp.origin,
      expectedRPID: deps.rp.id,
      requireUserVerification: true,
      credential: { id: p.passkey.credential_id, publicKey: isoBase64URL.toBuffer(p.passkey.public_key), counter, transports: transportsOf(p.passkey) },
    });
    if (!verified.verified) return false;
    info = verified.authenticationInfo;
  } catch {
    // The library throws for every refusal (origin, RP id, flags, counter, signature): one answer for all.
    return false;
  }
  if (info.credentialDeviceType !== p.passkey.device_type) return false;
  return recordPasskeyUse(deps.db, { id: p.passkey.id, checkedCounter: counter, counter: info.newCounter, backedUp: info.credentialBackedUp, now: p.now });
}
