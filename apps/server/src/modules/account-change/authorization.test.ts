import { describe, expect, it } from 'vitest';
import { LIMITS } from '@sso/contracts/constants';
import { withTestApp, type TestApp } from '../../test-support/test-app.ts';
import { DIALECTS } from '../../test-support/test-db.ts';
import { call, loginCheck, loggedInMember, logout } from '../../test-support/account-change-kit.ts';

const UNAUTHORIZED = { result_code: 300 };
/** Each Bearer endpoint with a body that would succeed for a live token. */
const ENDPOINTS = [
  ['/api/auth/email/change', () => ({ email: `someone.new.${Math.random().toString(36).slice(2)}@example.com` })],
  ['/api/auth/password/change', () => ({ current_password: 'Before-pass1', password: 'After-pass2', password_check: 'After-pass2' })],
  ['/api/auth/cancel', () => ({})],
] as const;

async function expectRefused(t: TestApp, access: string | undefined, member: { id: string; email: string }) {
  for (const [url, body] of ENDPOINTS) {
    const res = await call(t, url, access, body());
    expect(res.statusCode, `${url} ${res.body}`).toBe(401);
    expect(res.json()).toMatchObject(UNAUTHORIZED);
    expect(res.headers['www-authenticate']).toContain('Bearer');
  }
  // Nothing changed: the member still logs in with the old password and address, and nothing was logged.
  expect(await loginCheck(t, member.email, 'Before-pass1')).toBe(0);
  const rows = await t.testDb.db.kysely.selectFrom('activity_log').select('event').where('user_id', '=', member.id).execute();
  expect(rows.map((r) => r.event).filter((e) => ['email_changed', 'password_changed', 'withdrawn'].includes(e))).toEqual([]);
}

describe.each(DIALECTS)('account changes need a live Bearer token (%s)', (dialect) => {
  const t = withTestApp(dialect);

  it('answers 401 without a token and with a malformed one', async () => {
    const member = await loggedInMember(t);
    await expectRefused(t, undefined, member);
    await expectRefused(t, 'not a token', member);
  });

  it('answers 401 for a revoked (logged-out) token', async () => {
    const member = await loggedInMember(t);
    expect((await logout(t, member)).statusCode).toBe(200);
    await expectRefused(t, member.access_token, member);
  });

  it('answers 401 for an expired token', async () => {
    const member = await loggedInMember(t);
    t.clock.advance(LIMITS.accessTokenTtlMs + 1000);
    await expectRefused(t, member.access_token, member);
  });
});
