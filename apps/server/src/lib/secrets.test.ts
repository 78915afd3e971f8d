import { createHash, createHmac } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { DEVELOPMENT_LOOKUP_KEY, DEVELOPMENT_PAIRWISE_KEY, KEPT_DIGESTS, addressLookupDigest, keptPairwiseDigest, lookupDigest, pairwiseDigest, randomToken, setLookupKey, setPairwiseKey, sha256, sha256Base64Url } from './secrets.ts';

describe('lookupDigest', () => {
  afterEach(() => setLookupKey(DEVELOPMENT_LOOKUP_KEY));

  it('is keyed: not the plain SHA-256 a stolen table could be matched against, and another key gives another digest', () => {
    const card = '4541000000000001';
    const dev = lookupDigest(card);
    expect(dev).toMatch(/^[0-9a-f]{64}$/);
    expect(dev).not.toBe(sha256(card));
    expect(lookupDigest(card)).toBe(dev);
    setLookupKey('production-key-production-key-production-key');
    expect(lookupDigest(card)).not.toBe(dev);
  });

  // Whatever computes it, it must stay HMAC-SHA256 (RFC 2104) itself: the digests already stored
  // (cards, throttle keys, login tickets) were made with createHmac.
  it.each([
    ['a key shorter than the block', 'k'],
    ['a key of exactly one block', 'b'.repeat(64)],
    ['a key longer than the block, hashed first', 'c'.repeat(65)],
    ['a key of multi-byte characters', 'ルックアップ鍵'],
  ])('is HMAC-SHA256 (RFC 2104) of the UTF-8 value under %s', (_what, key) => {
    setLookupKey(key);
    for (const value of ['', '4541000000000001', 'login-ticket:SIAP009 $argon2id$v=19$m=19456,t=2,p=1$salt$hash', 'メンバー'.repeat(40)]) {
      expect(lookupDigest(value)).toBe(createHmac('sha256', key).update(value, 'utf8').digest('hex'));
    }
  });
});

describe('pairwiseDigest', () => {
  afterEach(() => setPairwiseKey(DEVELOPMENT_PAIRWISE_KEY));

  it('is HMAC-SHA256 of the UTF-8 value under the pairwise key, in base64url: the subjects partners already hold', () => {
    for (const key of [DEVELOPMENT_PAIRWISE_KEY, 'p'.repeat(100)]) {
      setPairwiseKey(key);
      expect(pairwiseDigest('member-id-apps 0f8c')).toBe(createHmac('sha256', key).update('member-id-apps 0f8c', 'utf8').digest('base64url'));
    }
  });
});

describe('sha256Base64Url', () => {
  it('is the S256 of RFC 7636: BASE64URL(SHA256(ASCII(verifier)))', () => {
    // RFC 7636 appendix B.
    expect(sha256Base64Url('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk')).toBe('E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM');
    expect(sha256Base64Url('abc')).toBe(createHash('sha256').update('abc', 'ascii').digest('base64url'));
  });
});

describe.each([
  { name: 'addressLookupDigest', kept: addressLookupDigest, digest: lookupDigest, setKey: setLookupKey, development: DEVELOPMENT_LOOKUP_KEY, value: (i: number) => `2001:db8:${i.toString(16)}::/64` },
  { name: 'keptPairwiseDigest', kept: keptPairwiseDigest, digest: pairwiseDigest, setKey: setPairwiseKey, development: DEVELOPMENT_PAIRWISE_KEY, value: (i: number) => `client:SIAP004\nmember-${i}` },
])('$name', ({ kept, digest, setKey, development, value }) => {
  afterEach(() => setKey(development));

  it('is the digest under the key of the moment, kept or not, past as many values as it keeps', () => {
    expect(kept(value(0))).toBe(digest(value(0)));
    expect(kept(value(0))).toBe(digest(value(0)));
    setKey('production-key-production-key-production-key');
    expect(kept(value(0))).toBe(digest(value(0)));
    const many = Array.from({ length: KEPT_DIGESTS + 10 }, (_, i) => value(i));
    for (const v of [...many, ...[...many].reverse()]) expect(kept(v)).toBe(digest(v));
  });
});

describe('randomToken', () => {
  it('never hands out the same bytes twice, across many refills of its pool, and takes any length', () => {
    // 10,000 tokens of 32 bytes: about 40 refills of the 8 KiB pool.
    const tokens = Array.from({ length: 10_000 }, () => randomToken());
    expect(new Set(tokens).size).toBe(tokens.length);
    for (const t of tokens.slice(0, 100)) expect(t).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(randomToken(9000), 'base64url')).toHaveLength(9000);
    expect(Buffer.from(randomToken(16), 'base64url')).toHaveLength(16);
  });
});
