import { afterEach, describe, expect, it } from 'vitest';
import { DEVELOPMENT_LOOKUP_KEY, DEVELOPMENT_PAIRWISE_KEY, KEPT_DIGESTS, addressLookupDigest, keptPairwiseDigest, lookupDigest, pairwiseDigest, randomToken, setLookupKey, setPairwiseKey, sha256 } from './secrets.ts';

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
