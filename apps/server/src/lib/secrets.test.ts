import { afterEach, describe, expect, it } from 'vitest';
import { DEVELOPMENT_LOOKUP_KEY, KEPT_ADDRESS_DIGESTS, addressLookupDigest, lookupDigest, randomToken, setLookupKey, sha256 } from './secrets.ts';

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

  it('of an address, kept for the next request, is the lookup digest under the key of the moment, past as many addresses as it keeps', () => {
    const address = '198.51.100.7';
    expect(addressLookupDigest(address)).toBe(lookupDigest(address));
    expect(addressLookupDigest(address)).toBe(lookupDigest(address));
    setLookupKey('production-key-production-key-production-key');
    expect(addressLookupDigest(address)).toBe(lookupDigest(address));
    const many = Array.from({ length: KEPT_ADDRESS_DIGESTS + 10 }, (_, i) => `2001:db8:${i.toString(16)}::/64`);
    for (const a of many) expect(addressLookupDigest(a)).toBe(lookupDigest(a));
    for (const a of [...many].reverse()) expect(addressLookupDigest(a)).toBe(lookupDigest(a));
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
