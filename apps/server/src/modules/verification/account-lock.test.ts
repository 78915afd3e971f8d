import { describe, expect, it } from 'vitest';
import { LIMITS } from '@sso/contracts/constants';
import { DIALECTS } from '../../test-support/test-db.ts';
import { postAuthorize, withTestApp, type TestApp } from '../../test-support/test-app.ts';
import { call, eventRows, loggedInMember } from '../../test-support/account-change-kit.ts';
import { forgotForToken, newMember, reset } from '../../test-support/recover-kit.ts';
import { accountLockKey } from './account-lock.ts';
import { passwordVerifications } from '../../lib/passwords.ts';

/**
 * Ten failures lock the account, not each of its ids (docs/decisions/0011-login-proof-and-account-lock.md):
 * wrong passwords by the e-mail, by the mobile number, at the authorize form and at the password
 * change count together; an id that is no member's keeps its own count (decision 0003); a password
 * reset and a withdrawal clear the account's count.
 */
const login = (t: TestApp, id: string, password: string) =>
  t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { id, password, recaptcha_token: 'dev', client_id: 'SIAP009' } }).then((r) => r.json().result_code as number);

const LOCK = LIMITS.loginFailuresBeforeLock;
const half = LOCK / 2;

describe.each(DIALECTS)('login lock of the account (%s)', (dialect) => {
  const t = withTestApp(dialect);
  const lockRow = (userId: string) => t.testDb.db.kysely.selectFrom('login_throttle').selectAll().where('key', '=', accountLockKey(userId)).executeTakeFirst();

  it('locks the account for both ids after 5 wrong passwords by e-mail and 5 by mobile number, the right one included', async () => {
    const member = await newMember(t);
    const codes: number[] = [];
    for (let i = 0; i < half; i++) codes.push(await login(t, member.email, `Wrong${i}pass`));
    for (let i = 0; i < half; i++) codes.push(await login(t, member.tel, `Wrong${i}pass`));
    expect(codes).toEqual([...Array<number>(LOCK - 1).fill(200), 203]);
    expect(await login(t, member.email, member.password)).toBe(203);
    expect(await login(t, member.tel, member.password)).toBe(203);
    // The authorize form counts on the same lock.
    const res = await postAuthorize(t.app, { user: member.tel, password: member.password });
    expect(new URL(String(res.headers.location)).searchParams.get('login_result')).toBe('locked');
    expect(await eventRows(t, member.id, 'login_locked')).toHaveLength(1);
    t.clock.advance(LIMITS.loginLockMs);
    expect(await login(t, member.tel, member.password)).toBe(0);
  });

  it('holds under parallel guesses by both ids: only the first 10 reach the password check', async () => {
    const member = await newMember(t);
    const before = passwordVerifications();
    const codes = await Promise.all(Array.from({ length: 30 }, (_, i) => login(t, i % 2 ? member.tel : member.email, `Parallel${i}x`)));
    expect(codes.filter((c) => c === 200)).toHaveLength(LOCK - 1);
    expect(codes.filter((c) => c === 203)).toHaveLength(30 - LOCK + 1);
    expect(passwordVerifications() - before).toBe(LOCK);
    expect(Number((await lockRow(member.id))?.failed_count)).toBe(30);
  });

  it('counts wrong current passwords at the password change on the same lock, and logs the lock they set', async () => {
    const member = await loggedInMember(t);
    for (let i = 0; i < LOCK - 1; i++) expect(await login(t, i % 2 ? member.tel : member.email, `Wrong${i}pass`)).toBe(200);
    const change = await call(t, '/api/auth/password/change', member.access_token, { current_password: 'Wrong-guess1', password: 'Next-pass12', password_check: 'Next-pass12' });
    expect(change.json().result_code).toBe(203);
    expect(await login(t, member.tel, member.password)).toBe(203);
    expect(await eventRows(t, member.id, 'login_locked')).toHaveLength(1);
  });

  it('is lifted by a password reset', async () => {
    const member = await newMember(t);
    for (let i = 0; i < LOCK; i++) await login(t, i % 2 ? member.tel : member.email, `Wrong${i}pass`);
    expect(await login(t, member.email, member.password)).toBe(203);
    expect((await reset(t, await forgotForToken(t, member.email), 'Reset-pass12')).json().result_code).toBe(0);
    expect(await login(t, member.tel, 'Reset-pass12')).toBe(0);
  });

  it('is cleared by a withdrawal, with the failures counted on the freed ids', async () => {
    const member = await loggedInMember(t);
    for (let i = 0; i < LOCK - 1; i++) await login(t, member.email, `Wrong${i}pass`);
    expect(await lockRow(member.id)).toBeDefined();
    expect((await call(t, '/api/auth/cancel', member.access_token)).json().result_code).toBe(0);
    expect(await lockRow(member.id)).toBeUndefined();
  });

  it('keeps counting an id that is no member\'s on its own: another unknown id is not locked', async () => {
    const codes: number[] = [];
    for (let i = 0; i < LOCK; i++) codes.push(await login(t, 'nobody.lock@example.com', `Wrong${i}pass`));
    expect(codes.at(-1)).toBe(203);
    expect(await login(t, '09099998888', 'Wrong-pass1')).toBe(200);
    expect(await login(t, 'nobody.lock@example.com', 'Wrong-pass1')).toBe(203);
  });
});
