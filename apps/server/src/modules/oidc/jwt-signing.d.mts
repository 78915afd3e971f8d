import type { JWK, JWTPayload } from 'jose';

/** One JWT to sign (jwt-signing.mjs): the key's id and algorithm, the private key the first time a signer meets it, the `typ` and the claims. */
export interface SignJob {
  kid: string;
  alg: string;
  jwk?: JWK;
  typ: string;
  payload: JWTPayload;
}

export function jwtSigning(): (job: SignJob) => Promise<string>;
