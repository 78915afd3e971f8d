import { generateKeyPairSync } from 'node:crypto';
import { createLocalJWKSet, decodeProtectedHeader, exportJWK, generateKeyPair, jwtVerify, type JWK } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { jwtSigning, type SignJob } from './jwt-signing.mjs';
import type { SigningAlg } from './signing-keys.ts';

interface TestKey {
  kid: string;
  alg: SigningAlg;
  privateJwk: JWK;
  publicJwk: JWK;
}

const newKey = async (kid: string, alg: SigningAlg): Promise<TestKey> => {
  const pair = await generateKeyPair(alg, { extractable: true });
  const publicJwk = { ...(await exportJWK(pair.publicKey)), kid, alg, use: 'sig' };
  return { kid, alg, privateJwk: await exportJWK(pair.privateKey), publicJwk };
};

const BASE64URL = /^[A-Za-z0-9_-]+$/;
const decoded = (part: string) => Buffer.from(part, 'base64url');

/**
 * The one function that signs the server's JWTs (jwt-signing.mjs, decision 0045): node:crypto's
 * one-shot `sign` makes the compact JWS by hand, so every token it makes is verified here by jose
 * against a published key set (RFC 7517), with the header, the encoding and the claims checked byte by byte.
 */
describe('jwtSigning', () => {
  let es256: TestKey;
  let rs256: TestKey;
  let jwks: ReturnType<typeof createLocalJWKSet>;
  beforeAll(async () => {
    [es256, rs256] = await Promise.all([newKey('kid-es', 'ES256'), newKey('kid-rs', 'RS256')]);
    jwks = createLocalJWKSet({ keys: [es256.publicJwk, rs256.publicJwk] });
  });
  const jobOf = (key: TestKey, payload: SignJob['payload'], typ = 'JWT', withKey = true): SignJob => ({
    kid: key.kid,
    alg: key.alg,
    typ,
    payload,
    ...(withKey ? { jwk: key.privateJwk } : {}),
  });

  for (const alg of ['ES256', 'RS256'] as const) {
    it(`signs ${alg} synchronously: a compact JWS jose verifies against the key set, header exactly {alg,kid,typ}, base64url without padding, the claims as JSON`, async () => {
      const key = alg === 'ES256' ? es256 : rs256;
      const sign = jwtSigning();
      const payload = { iss: 'https://id.example', sub: 'pairwise-1', aud: 'SIAP004', exp: 2_000_000_000, iat: 1_999_999_400, name: '山田 太郎', amr: ['pwd'] };
      const token = sign(jobOf(key, payload));
      expect(typeof token).toBe('string');
      const parts = token.split('.');
      expect(parts).toHaveLength(3);
      for (const part of parts) expect(part).toMatch(BASE64URL);
      expect(decoded(parts[0]!).toString('utf8')).toBe(JSON.stringify({ alg, kid: key.kid, typ: 'JWT' }));
      expect(JSON.parse(decoded(parts[1]!).toString('utf8'))).toEqual(payload);
      // ES256 is R || S, 64 bytes (RFC 7518 section 3.4), not DER; RS256 is the modulus's 256 bytes.
      expect(decoded(parts[2]!)).toHaveLength(alg === 'ES256' ? 64 : 256);

      const verified = await jwtVerify(token, jwks, { algorithms: [alg], issuer: 'https://id.example', audience: 'SIAP004', currentDate: new Date(1_999_999_500_000) });
      expect(verified.payload).toEqual(payload);
      expect(verified.protectedHeader).toEqual({ alg, kid: key.kid, typ: 'JWT' });

      // The key is kept by kid: the next job, without it, is signed with it.
      const logout = sign(jobOf(key, { sub: 'pairwise-1', events: { 'http://schemas.openid.net/event/backchannel-logout': {} } }, 'logout+jwt', false));
      expect(decodeProtectedHeader(logout)).toEqual({ alg, kid: key.kid, typ: 'logout+jwt' });
      await jwtVerify(logout, jwks, { algorithms: [alg], typ: 'logout+jwt' });
    });
  }

  it('makes a token whose signature or claims were changed fail jose', async () => {
    const sign = jwtSigning();
    const [header, payload, signature] = sign(jobOf(es256, { sub: 'a' })).split('.') as [string, string, string];
    const forged = Buffer.from(JSON.stringify({ sub: 'b' })).toString('base64url');
    await expect(jwtVerify(`${header}.${forged}.${signature}`, jwks)).rejects.toThrow();
    const flipped = decoded(signature);
    flipped[10] = flipped[10]! ^ 1;
    await expect(jwtVerify(`${header}.${payload}.${flipped.toString('base64url')}`, jwks)).rejects.toThrow();
  });

  it('refuses a key never handed over, an algorithm it does not sign with, and a key not of its algorithm', async () => {
    const sign = jwtSigning();
    expect(() => sign(jobOf(es256, { sub: 'a' }, 'JWT', false))).toThrow('the signing key kid-es was never handed over');
    expect(() => sign({ ...jobOf(es256, { sub: 'a' }), alg: 'HS256' })).toThrow('the signing algorithm HS256 is not one this server signs with');
    expect(() => sign({ ...jobOf(es256, { sub: 'a' }), alg: 'none' })).toThrow(/not one this server signs with/);
    // An EC key asked to sign RS256, an RSA key asked to sign ES256, a P-384 key, an RSA key under 2048 bits.
    expect(() => sign({ ...jobOf(es256, { sub: 'a' }), alg: 'RS256' })).toThrow('the signing key kid-es is not a key for RS256');
    expect(() => sign({ ...jobOf(rs256, { sub: 'a' }), alg: 'ES256' })).toThrow('the signing key kid-rs is not a key for ES256');
    const p384 = await exportJWK((await generateKeyPair('ES384', { extractable: true })).privateKey);
    expect(() => sign({ kid: 'kid-384b', alg: 'ES256', typ: 'JWT', payload: {}, jwk: p384 })).toThrow('the signing key kid-384b is not a key for ES256');
    // jose makes no RSA key under 2048 bits: node:crypto makes this one.
    const small = generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey.export({ format: 'jwk' }) as JWK;
    expect(() => sign({ kid: 'kid-small', alg: 'RS256', typ: 'JWT', payload: {}, jwk: small })).toThrow('the signing key kid-small is not a key for RS256');
    // A key once kept under its kid signs only its own algorithm.
    sign(jobOf(es256, { sub: 'a' }));
    expect(() => sign({ ...jobOf(es256, { sub: 'a' }, 'JWT', false), alg: 'RS256' })).toThrow('the signing key kid-es is not a key for RS256');
    // A broken key is not kept: the job that brings a good one under that kid is signed.
    expect(() => sign({ ...jobOf(es256, { sub: 'a' }), kid: 'kid-fixed', jwk: { kty: 'EC', crv: 'P-256', x: 'AAAA', y: 'AAAA', d: 'AAAA' } })).toThrow();
    const fixed = sign({ ...jobOf(es256, { sub: 'a' }), kid: 'kid-fixed' });
    expect(decodeProtectedHeader(fixed).kid).toBe('kid-fixed');
  });
});
