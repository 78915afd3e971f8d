import { describe, expect, it } from 'vitest';
import { challengeFor, newPkcePair } from './pkce.ts';

describe('pkce', () => {
  it('computes the RFC 7636 appendix B challenge', async () => {
    expect(await challengeFor('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk')).toBe('E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM');
  });

  it('throws for verifiers outside 43-128 characters or with other characters', async () => {
    await expect(challengeFor('a'.repeat(42))).rejects.toThrow();
    await expect(challengeFor('a'.repeat(129))).rejects.toThrow();
    await expect(challengeFor(`${'a'.repeat(42)}!`)).rejects.toThrow();
    await expect(challengeFor('a'.repeat(43))).resolves.toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('makes a fresh valid pair each time', async () => {
    const a = await newPkcePair();
    const b = await newPkcePair();
    expect(a.codeVerifier).not.toBe(b.codeVerifier);
    expect(await challengeFor(a.codeVerifier)).toBe(a.codeChallenge);
  });
});
