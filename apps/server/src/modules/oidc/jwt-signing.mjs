import { createPrivateKey, sign as opensslSign } from 'node:crypto';

/**
 * The JWS algorithms this server signs with (decision 0034) as node:crypto's one-shot `sign` takes
 * them (RFC 7518 section 3): ES256 is ECDSA P-256 with SHA-256, its signature R || S of 32 bytes each
 * (`ieee-p1363`, section 3.4), not DER; RS256 is RSASSA-PKCS1-v1_5 with SHA-256 (section 3.3), a key of
 * 2048 bits at least.
 * @type {Record<string, { keyType: string, check(key: import('node:crypto').KeyObject): boolean, options: { dsaEncoding?: 'ieee-p1363' } }>}
 */
const ALGORITHMS = {
  ES256: { keyType: 'ec', check: (key) => key.asymmetricKeyDetails?.namedCurve === 'prime256v1', options: { dsaEncoding: 'ieee-p1363' } },
  RS256: { keyType: 'rsa', check: (key) => (key.asymmetricKeyDetails?.modulusLength ?? 0) >= 2048, options: {} },
};

/** @param {string} text */
const base64url = (text) => Buffer.from(text, 'utf8').toString('base64url');

/**
 * How this server signs a JWT (ID tokens, signed userinfo answers and logout tokens; decisions 0025
 * and 0045): a compact JWS (RFC 7515 section 7.1) made with OpenSSL's one-shot `sign` of node:crypto,
 * the header exactly `{ alg, kid, typ }`, the claims as JSON, both base64url without padding. The
 * private key is made a KeyObject once per `kid` from its JWK and kept; a key of the wrong type or
 * curve for its `alg` is refused. Synchronous, and one function for every place that signs: the signing
 * worker thread (jwt-sign-worker.mjs) and, when that thread is gone, the server's (jwt-signer.ts). jose
 * verifies every token (tests: jwt-signing.test.ts). Plain JavaScript: a worker thread does not get
 * the TypeScript loader the server runs under.
 */
export function jwtSigning() {
  /** @type {Map<string, { alg: string, key: import('node:crypto').KeyObject }>} */
  const keys = new Map();
  /** @param {import('./jwt-signing.d.mts').SignJob} job */
  return function sign(job) {
    const algorithm = Object.hasOwn(ALGORITHMS, job.alg) ? ALGORITHMS[job.alg] : undefined;
    if (!algorithm) throw new Error(`the signing algorithm ${job.alg} is not one this server signs with`);
    let kept = keys.get(job.kid);
    if (!kept) {
      if (!job.jwk) throw new Error(`the signing key ${job.kid} was never handed over`);
      // A key that fails here is not kept: the next job that carries it tries again.
      const key = createPrivateKey({ key: /** @type {import('node:crypto').JsonWebKey} */ (job.jwk), format: 'jwk' });
      if (key.asymmetricKeyType !== algorithm.keyType || !algorithm.check(key)) throw new Error(`the signing key ${job.kid} is not a key for ${job.alg}`);
      kept = { alg: job.alg, key };
      keys.set(job.kid, kept);
    }
    if (kept.alg !== job.alg) throw new Error(`the signing key ${job.kid} is not a key for ${job.alg}`);
    const { key } = kept;
    const signingInput = `${base64url(JSON.stringify({ alg: job.alg, kid: job.kid, typ: job.typ }))}.${base64url(JSON.stringify(job.payload))}`;
    const signature = opensslSign('sha256', Buffer.from(signingInput, 'utf8'), { key, ...algorithm.options });
    return `${signingInput}.${signature.toString('base64url')}`;
  };
}
