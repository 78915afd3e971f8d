import { createHash, randomUUID } from 'node:crypto';
import { calculateJwkThumbprint, exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from 'jose';

/**
 * A DPoP client's key and proofs (RFC 9449 section 4), written here with jose rather than by a
 * library, so that a test can get any claim wrong on purpose. The unmodified openid-client's own
 * proofs are used where a relying party is what is tested (oidc-kit.ts).
 */
export interface DpopKey {
  alg: string;
  privateKey: CryptoKey;
  /** The public key, as the proof's header carries it. */
  jwk: JWK;
  /** Its JWK SHA-256 thumbprint (RFC 7638): what a bound token's `cnf.jkt` names. */
  jkt: string;
}

export async function dpopKey(alg = 'ES256'): Promise<DpopKey> {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
  const jwk = await exportJWK(publicKey);
  return { alg, privateKey, jwk, jkt: await calculateJwkThumbprint(jwk, 'sha256') };
}

export interface ProofClaims {
  htm: string;
  htu: string;
  /** The access token the proof goes with: its hash is `ath`. */
  token?: string;
  /** Seconds since the epoch; now by default (the test app's clock, which the caller passes). */
  iat: number;
  nonce?: string;
  jti?: string;
  /** What the header says instead of the key's own (a wrong typ, a private key, another alg). */
  header?: Record<string, unknown>;
}

/** A proof signed by `key` (section 4.2). */
export const dpopProof = (key: DpopKey, c: ProofClaims): Promise<string> =>
  new SignJWT({
    htm: c.htm,
    htu: c.htu,
    jti: c.jti ?? randomUUID(),
    ...(c.token === undefined ? {} : { ath: createHash('sha256').update(c.token).digest('base64url') }),
    ...(c.nonce === undefined ? {} : { nonce: c.nonce }),
  })
    .setProtectedHeader({ alg: key.alg, typ: 'dpop+jwt', jwk: key.jwk, ...c.header } as { alg: string })
    .setIssuedAt(c.iat)
    .sign(key.privateKey);
