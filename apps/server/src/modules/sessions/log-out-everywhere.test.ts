import { describe, expect, it } from 'vitest';
import { call, eventRows, expectSessionDead } from '../../test-support/account-change-kit.ts';
import { clientTokens } from '../../test-support/direct-login-kit.ts';
import { newMember } from '../../test-support/recover-kit.ts';
import { codeOf, loginPageOf, PARTNER, partnerTokens, requestQuery, TestBrowser, webTokens } from '../../test-support/sso-kit.ts';
import { bearer, tokenRequest, withTestApp, type TestApp } from '../../test-support/test-app.ts';
import { DIALECTS } from '../../test-support/test-db.ts';

const SAFARI = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';

/** The app's log lines, for the security events (docs/security-events.md). */
function capturedLog() {
  const lines: string[] = [];
  return {
    stream: { write: (chunk: string) => void lines.push(...chunk.split('\n').filter(Boolean)) },
    security: () => lines.map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l.log_type === 'security'),
  };
}

/**
 * すべての端末からログアウト (/user/sessions; docs/decisions/0026-sso-session.md): every browser's SSO
 * session and every service's session of the member end at once, this one's too, by the
 * session-ending kernel (modules/sessions/end-sessions.ts); logged to the member and as a security event.
 */
describe.each(DIALECTS)('log out everywhere (%s)', (dialect) => {
  const log = capturedLog();
  const t = withTestApp(dialect, {}, { logStream: log.stream });
  const endAll = (access: string) => call(t, '/api/user/sessions/end_all', access);

  /** A member signed in from a PC and an iPhone, to a portal app from the PC's session, and to Net Answer by its own login. */
  async function signedInEverywhere(t: TestApp) {
    const member = await newMember(t);
    const pc = new TestBrowser();
    const pcTokens = await webTokens(t, codeOf(await pc.login(t, member)));
    const phone = new TestBrowser(SAFARI);
    const phoneTokens = await webTokens(t, codeOf(await phone.login(t, member)));
    const portal = await partnerTokens(t, codeOf(await pc.authorize(t, requestQuery(PARTNER))));
    const netAnswer = await clientTokens(t, 'SIAP004', member.email, member.password);
    return { member, pc, pcTokens, phone, phoneTokens, portal, netAnswer };
  }

  const portalRefresh = (refreshToken: string) => tokenRequest(t.app, { grant_type: 'refresh_token', refresh_token: refreshToken, client_id: PARTNER.clientId });

  it('ends every browser session and every token family of the member, this browser\'s too; another member is untouched', async () => {
    const one = await signedInEverywhere(t);
    const other = await signedInEverywhere(t);
    const res = await endAll(one.pcTokens.access_token);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ result_code: 0, result_message: '正常に処理しました。' });

    // Every refresh token dead, this browser's included.
    await expectSessionDead(t, one.pcTokens);
    await expectSessionDead(t, one.phoneTokens);
    expect((await portalRefresh(one.portal.refresh_token)).json().error).toBe('invalid_grant');
    expect((await t.app.inject({ method: 'POST', url: '/api/subuser/introspect', headers: { authorization: `Basic ${Buffer.from('SIAP004:demo-secret-SIAP004').toString('base64')}`, 'content-type': 'application/x-www-form-urlencoded' }, payload: `token=${one.netAnswer.access_token}` })).json()).toEqual({ active: false });
    // Neither browser completes a request from its session any more: the login page.
    for (const browser of [one.pc, one.phone]) {
      expect((await browser.authorize(t, requestQuery(PARTNER))).headers.location).toBe(loginPageOf(requestQuery(PARTNER)));
    }
    const db = t.testDb.db.kysely;
    expect(await db.selectFrom('sso_sessions').select('id').where('user_id', '=', one.member.id).where('ended_at', 'is', null).execute()).toEqual([]);
    expect(await db.selectFrom('token_families').select('id').where('user_id', '=', one.member.id).where('revoked_at', 'is', null).execute()).toEqual([]);

    // The other member goes on everywhere.
    expect((await t.app.inject({ method: 'POST', url: '/api/user', headers: bearer(other.phoneTokens.access_token) })).statusCode).toBe(200);
    expect((await portalRefresh(other.portal.refresh_token)).statusCode).toBe(200);
    expect(codeOf(await other.pc.authorize(t, requestQuery(PARTNER)))).toBeTruthy();
    expect(await eventRows(t, other.member.id, 'sessions_ended_everywhere')).toEqual([]);
  });

  it('is logged to the member (with the device that asked) and written as a security event', async () => {
    const { member, pcTokens } = await signedInEverywhere(t);
    expect((await endAll(pcTokens.access_token)).json().result_code).toBe(0);
    expect(await eventRows(t, member.id, 'sessions_ended_everywhere')).toEqual([{ event: 'sessions_ended_everywhere', detail: expect.stringContaining('Chrome / Windows') }]);
    expect(log.security().filter((l) => l.event === 'sessions.ended' && l.member_ref === member.id)).toEqual([expect.objectContaining({ reason: 'member_everywhere', client_id: null })]);
  });

  it('asks no fresh proof: a session whose proof is long past may end every session, its own included', async () => {
    const { pcTokens } = await signedInEverywhere(t);
    // Past the fresh proof's five minutes (LIMITS.freshProofMaxAgeMs), within the access token's hour.
    t.clock.advance(30 * 60 * 1000);
    const res = await endAll(pcTokens.access_token);
    expect(res.statusCode).toBe(200);
    await expectSessionDead(t, pcTokens);
  });

  it('is the member\'s own apps\' business: a partner\'s token (no account:write) is refused, and ends nothing', async () => {
    const { netAnswer, phoneTokens } = await signedInEverywhere(t);
    expect((await endAll(netAnswer.access_token)).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'POST', url: '/api/user', headers: bearer(phoneTokens.access_token) })).statusCode).toBe(200);
    expect((await endAll('not-a-token')).statusCode).toBe(401);
  });
});
