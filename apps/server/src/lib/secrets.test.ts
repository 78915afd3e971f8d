import { afterEach, describe, expect, it } from 'vitest';
import { DEVELOPMENT_LOOKUP_KEY, lookupDigest, setLookupKey, sha256 } from './secrets.ts';

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
