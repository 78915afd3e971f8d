import { ACR_VALUES, LIMITS, type SigningAlg } from '@sso/contracts/constants';
import { sha256Bytes } from '../../lib/secrets.ts';
import type { JwtSigner } from './jwt-signer.ts';
import type { SigningKeyStore } from './signing-keys.ts';

/** What the OpenID Provider needs: the issuer, the keys (signing-keys.ts) and the node's signer (jwt-signer.ts). */
export interface OidcDeps {
  issuer: string;
  signingKeys: SigningKeyStore;
  signer: JwtSigner;
}

/** The RFC 8176 methods of a passkey: proof of possession of a key held by a device (hwk) or synced by a provider (swk). */
const PASSKEY_AMR = new Set(['hwk', 'swk']);

/**
 * The authentication context class of a sign-in (OpenID Connect Core 1.0 section 2, `acr`; decision
 * 0025): phishing-resistant for a passkey, basic for a password or a one-time code; none when the
 * session carries no methods (made before migration 0015, or by a direct login, which authenticates
 * no one).
 */
export function acrOf(amr: readonly string[]): string | undefined {
  if (amr.length === 0) return undefined;
  return amr.some((m) => PASSKEY_AMR.has(m)) ? ACR_VALUES.phishingResistant : ACR_VALUES.basic;
}

/** The stored `amr` (space-separated, migration 0015) as the claim's list. */
export const amrList = (stored: string | null): string[] => (stored ? stored.split(' ').filter((m) => m !== '') : []);

/**
 * OpenID Connect Core 1.0 section 3.2.2.9 / 3.1.3.6: the left half of the SHA-256 of the access
 * token, base64url. The access token is ASCII (tokens.ts), so hashing its text is hashing its octets.
 */
const atHash = (accessToken: string): string => sha256Bytes(accessToken).subarray(0, 16).toString('base64url');

export interface IdTokenClaims {
  clientId: string;
  /** The client's `id_token_signed_response_alg` (clients.ts; decision 0034). */
  alg: SigningAlg;
  /** The member's subject identifier for this client (subject.ts). */
  subject: string;
  /** When the member authenticated, ms; null: unknown (a direct login's session whose asking session did not know it), and the claim is left out. */
  authTime: number | null;
  amr: readonly string[];
  /** The SSO session (`sid`, for back-channel logout), or null. */
  sid: string | null;
  /** The authorization request's nonce, at the code exchange only (section 12.2: none at a refresh). */
  nonce: string | null;
  /** The access token answered with it, for `at_hash`. */
  accessToken: string;
  now: number;
}

/**
 * An ID token (OpenID Connect Core 1.0 sections 2 and 3.1.3.6), signed with the current key of the
 * client's algorithm by the node's signer (jwt-signer.ts): iss, sub, aud (the client), exp (LIMITS.idTokenTtlMs), iat,
 * auth_time when it is known, nonce when the request had one, acr and amr when the session knows how the member signed
 * in, sid when it came from an SSO session, at_hash.
 */
export async function mintIdToken(deps: OidcDeps, c: IdTokenClaims): Promise<string> {
  const iat = Math.floor(c.now / 1000);
  const acr = acrOf(c.amr);
  return deps.signer.sign('JWT', {
    iss: deps.issuer,
    sub: c.subject,
    aud: c.clientId,
    exp: iat + Math.floor(LIMITS.idTokenTtlMs / 1000),
    iat,
    ...(c.authTime !== null ? { auth_time: Math.floor(c.authTime / 1000) } : {}),
    ...(c.nonce !== null ? { nonce: c.nonce } : {}),
    ...(acr ? { acr, amr: [...c.amr] } : {}),
    ...(c.sid !== null ? { sid: c.sid } : {}),
    at_hash: atHash(c.accessToken),
  }, c.alg);
}
