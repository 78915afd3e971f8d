import { SignJWT, importJWK } from 'jose';

/**
 * How this server signs a JWT (ID tokens and logout tokens, decision 0025): jose's `SignJWT`, with the
 * private key imported once per `kid` and kept. One function for both places that sign: the signing
 * worker thread (jwt-sign-worker.mjs) and, when that thread is gone, the server's own thread
 * (jwt-signer.ts). Plain JavaScript: a worker thread does not get the TypeScript loader the server
 * runs under.
 */
export function jwtSigning() {
  /** @type {Map<string, Promise<import('jose').CryptoKey | Uint8Array>>} */
  const keys = new Map();
  /** @param {import('./jwt-signing.d.mts').SignJob} job */
  return async function sign(job) {
    let key = keys.get(job.kid);
    if (!key) {
      if (!job.jwk) throw new Error(`the signing key ${job.kid} was never handed over`);
      key = importJWK(job.jwk, job.alg);
      // Set before the first await: a later job of the same batch, without the key, finds it.
      keys.set(job.kid, key);
      // A failed import is not kept: the next job that carries the key tries again.
      key.catch(() => keys.delete(job.kid));
    }
    return new SignJWT(job.payload).setProtectedHeader({ alg: job.alg, kid: job.kid, typ: job.typ }).sign(await key);
  };
}
