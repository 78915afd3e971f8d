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

/** A stored WebAuthn credential as an assertion is checked against it: a member's passkey or an operator's (decision 0032). */
export type StoredCredential = Pick<PasskeyRow, 'credential_id' | 'public_key' | 'counter' | 'transports' | 'device_type'>;

/**
 * Checks an assertion by a stored credential over a challenge just used up (decision 0024), with
 * @simplewebauthn/server: the signature by the stored public key, the origin and relying party id
 * (relying-party.ts), user verification, and a signature counter that moved forward when either side
 * counts; beyond the library, the credential's backup eligibility (its device type) never changes.
 * Answers what the caller records (the new counter and backup state), or undefined: not signed.
 */
export async function verifyAssertion(
  rp: RelyingParty,
  p: { answer: AuthenticationResponseJSON; challenge: string; credential: StoredCredential },
): Promise<{ checkedCounter: number; counter: number; backedUp: boolean } | undefined> {
  const checkedCounter = Number(p.credential.counter);
  let info;
  try {
    const verified = await verifyAuthenticationResponse({
      response: p.answer,
      expectedChallenge: p.challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      requireUserVerification: true,
      credential: { id: p.credential.credential_id, publicKey: isoBase64URL.toBuffer(p.credential.public_key), counter: checkedCounter, transports: transportsOf(p.credential) },
    });
    if (!verified.verified) return undefined;
    info = verified.authenticationInfo;
  } catch {
    // The library throws for every refusal (origin, RP id, flags, counter, signature): one answer for all.
    return undefined;
  }
  if (info.credentialDeviceType !== p.credential.device_type) return undefined;
  return { checkedCounter, counter: info.newCounter, backedUp: info.credentialBackedUp };
}

/**
 * Checks an assertion of one of the member's passkeys (verifyAssertion), and records the use only
 * while the stored counter is the one checked, so that two parallel uses of a counting authenticator
 * cannot both pass. True: the member's authenticator signed.
 */
export async function checkAssertion(
  deps: { db: Kysely<Database>; rp: RelyingParty },
  p: { answer: AuthenticationResponseJSON; challenge: string; passkey: PasskeyRow; now: number },
): Promise<boolean> {
  const use = await verifyAssertion(deps.rp, { answer: p.answer, challenge: p.challenge, credential: p.passkey });
  return use !== undefined && recordPasskeyUse(deps.db, { id: p.passkey.id, ...use, now: p.now });
}
