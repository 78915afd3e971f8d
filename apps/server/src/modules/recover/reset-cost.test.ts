import { describe, expect, it, vi } from 'vitest';
import { withTestApp } from '../../test-support/test-app.ts';
import { OK, forgotForToken, newMember, reset } from '../../test-support/recover-kit.ts';

// The real argon2id, only counted: how many hashes a request makes is what this test is about.
const hashes = vi.hoisted(() => ({ count: 0 }));
vi.mock(import('../../lib/passwords.ts'), async (original) => {
  const real = await original();
  return { ...real, hashPassword: (password: string) => ((hashes.count += 1), real.hashPassword(password)) };
});

describe('password reset cost (argon2id is the costliest work anyone can ask for)', () => {
  const t = withTestApp('sqlite');

  it('hashes no password for a dead link, and one for a live link', async () => {
    const member = await newMember(t);
    const token = await forgotForToken(t, member.email);
    hashes.count = 0;
    for (let i = 0; i < 5; i++) expect((await reset(t, `${'x'.repeat(42)}${i}`, 'After-pass2')).json().result_code).toBe(902);
    expect(hashes.count).toBe(0);
    expect((await reset(t, token, 'After-pass2')).json()).toEqual(OK);
    expect(hashes.count).toBe(1);
    // Used up: refused again without a hash.
    expect((await reset(t, token, 'After-pass3')).json().result_code).toBe(902);
    expect(hashes.count).toBe(1);
  });
});
