import type { VerifiedRegistrationResponse } from '@simplewebauthn/server';
import { isoBase64URL } from '@simplewebauthn/server/helpers';
import type { WebAuthnCredentialColumns } from '../db/schema.ts';

/*
 * A WebAuthn credential as the database keeps it, whoever holds it: a member's passkey (`passkeys`,
 * decision 0024) or an operator's (`operator_passkeys`, decision 0032). Both tables have these
 * columns (db/schema.ts WebAuthnCredentialColumns); each owner's repository writes its own table.
 */

/** What a verified registration tells of the new credential (@simplewebauthn/server). */
export type RegistrationInfo = Extract<VerifiedRegistrationResponse, { verified: true }>['registrationInfo'];

/**
 * The stored columns of a newly registered credential: its id (base64url), its public key (base64url
 * of the COSE key), its signature counter, its transports as a JSON array, its backup eligibility
 * (device type, fixed for its life) and its backup state (WebAuthn Level 3, sections 6.1 and 6.5).
 */
export const credentialColumns = (info: RegistrationInfo): WebAuthnCredentialColumns => ({
  credential_id: info.credential.id,
  public_key: isoBase64URL.fromBuffer(info.credential.publicKey),
  counter: info.credential.counter,
  transports: JSON.stringify(info.credential.transports ?? []),
  device_type: info.credentialDeviceType,
  backed_up: info.credentialBackedUp ? 1 : 0,
});

/** A checked use of a stored credential: the counter it was checked against, and the new counter and backup state. */
export interface CredentialUse {
  id: string;
  checkedCounter: number;
  counter: number;
  backedUp: boolean;
  now: number;
}

/** The columns a use sets: the new signature counter, the backup state and the time of the use. */
export const usedColumns = (use: CredentialUse) => ({ counter: use.counter, backed_up: use.backedUp ? 1 : 0, last_used_at: use.now });
