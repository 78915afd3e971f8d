import type { JWK, JWTPayload } from 'jose';

/** One JWT to sign (jwt-signing.mjs): the key's id and algorithm, the private key the first time a signer meets it, the `typ` and the claims. */
export interface SignJob {
  kid: string;
  alg: string;
  jwk?: JWK;
  typ: string;
  payload: JWTPayload;
}

/** Signs one job, synchronously; throws when it cannot (an unknown algorithm, a key never handed over, a key not of its algorithm). */
export function jwtSigning(): (job: SignJob) => string;
