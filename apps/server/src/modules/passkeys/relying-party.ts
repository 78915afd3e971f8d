import { PRODUCT_NAME } from '@sso/contracts/terms';

/**
 * The WebAuthn relying party (decision 0024): its id is the host of PUBLIC_ORIGIN and the only origin
 * whose ceremonies count is PUBLIC_ORIGIN itself, so that a passkey made here signs in nowhere else
 * and a look-alike site's ceremony is refused (WebAuthn Level 3, sections 7.1 and 7.2).
 */
export interface RelyingParty {
  id: string;
  name: string;
  origin: string;
}

export const relyingPartyOf = (issuer: string): RelyingParty => {
  const url = new URL(issuer);
  return { id: url.hostname, name: PRODUCT_NAME, origin: url.origin };
};

/**
 * The WebAuthn user handle of a member: their id's bytes, which carry no personal data (WebAuthn
 * section 5.4.3). The browser answers it base64url-encoded in a sign-in with a discoverable credential.
 */
export const userHandleBytes = (userId: string): Uint8Array<ArrayBuffer> => new Uint8Array(Buffer.from(userId, 'utf8'));
export const userHandleOf = (userId: string): string => Buffer.from(userId, 'utf8').toString('base64url');
