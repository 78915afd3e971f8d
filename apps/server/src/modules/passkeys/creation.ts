import { generateRegistrationOptions, verifyRegistrationResponse, type RegistrationResponseJSON } from '@simplewebauthn/server';
import { LIMITS } from '@sso/contracts/constants';
import type { WebAuthnCredentialColumns } from '../../db/schema.ts';
import { credentialColumns } from '../../lib/webauthn-credential.ts';
import { transportsOf, type StoredCredential } from './assertion.ts';
import type { RelyingParty } from './relying-party.ts';

/*
 * A credential's creation (registration) ceremony, as a member adds a passkey (decision 0024) and an
 * operator enrols (decision 0032): the options, and the browser's answer checked. What asks for it
 * keeps and takes the challenge (ceremony.ts) and stores the credential in its own table.
 */

/**
 * The creation options of a discoverable credential with user verification required, without
 * attestation, excluding the credentials the user holds already (WebAuthn Level 3, section 5.4).
 */
export const creationOptions = (
  rp: RelyingParty,
  p: { rpName: string; userId: Uint8Array<ArrayBuffer>; userName: string; userDisplayName: string; own: Pick<StoredCredential, 'credential_id' | 'transports'>[] },
) =>
  generateRegistrationOptions({
    rpName: p.rpName,
    rpID: rp.id,
    userID: p.userId,
    userName: p.userName,
    userDisplayName: p.userDisplayName,
    timeout: LIMITS.passkeyChallengeTtlMs,
    attestationType: 'none',
    excludeCredentials: p.own.map((k) => ({ id: k.credential_id, transports: transportsOf(k) })),
    authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
  });

/**
 * The browser's registration answer over a challenge just taken, checked by @simplewebauthn/server
 * (origin, relying party, user verification, the attestation's format): the new credential's stored
 * columns, or undefined for any refusal, alike.
 */
export async function verifyCreation(rp: RelyingParty, answer: unknown, challenge: string): Promise<WebAuthnCredentialColumns | undefined> {
  try {
    const verified = await verifyRegistrationResponse({
      response: answer as RegistrationResponseJSON,
      expectedChallenge: challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      requireUserVerification: true,
    });
    return verified.verified ? credentialColumns(verified.registrationInfo) : undefined;
  } catch {
    // The library throws for every refusal: one answer for all.
    return undefined;
  }
}
