import { describe, expect, it } from 'vitest';
import { sessionsResponseSchema } from '@sso/contracts/sessions';
import { call, eventRows } from '../../test-support/account-change-kit.ts';
import { clientTokens } from '../../test-support/direct-login-kit.ts';
import { newMember } from '../../test-support/recover-kit.ts';
import { codeOf, PARTNER, partnerTokens, requestQuery, TestBrowser, webTokens } from '../../test-support/sso-kit.ts';
import { bearer, withTestApp, type TestApp } from '../../test-support/test-app.ts';
import { DIALECTS } from '../../test-support/test-db.ts';

const SAFARI = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';

const list = async (t: TestApp, access: string) => {
  const res = await call(t, '/api/user/sessions', access);
  expect(res.statusCode, res.body).toBe(200);
  return sessionsResponseSchema.parse(res.json());
};
const end = (t: TestApp, access: string, kind: string, id: string) => call(t, '/api/user/sessions/end', access, { kind, id });
const isLive = async (t: TestApp, access: string) => (await t.app.inject({ method: 'POST', url: '/api/user', headers: bearer(access) })).statusCode === 200;

/**
 * The member's signed-in browsers and services (/user/sessions; docs/decisions/0026-sso-session.md):
 * listed with the browser of the request marked, ended one at a time, each ending logged.
 */
describe.each(DIALECTS)('signed-in browsers and services (%s)', (dialect) => {
  const t = withTestApp(dialect);

  /**
   * A member signed in to Net Answer from a browser that kept no cookie (its session is a browser's
   * too), then to the web from a PC and an iPhone, and the PC to a portal app from its session.
   */
  async function signedInEverywhere() {
    const member = await newMember(t);
    const partner = await clientTokens(t, 'SIAP004', member.email, member.password);
    const pc = new TestBrowser();
    const pcTokens = await webTokens(t, codeOf(await pc.login(t, member)));
    const phone = new TestBrowser(SAFARI);
    t.clock.advance(60_000);
    const phoneTokens = await webTokens(t, codeOf(await phone.login(t, member)));
    t.clock.advance(60_000);
    await partnerTokens(t, codeOf(await pc.authorize(t, requestQuery(PARTNER))));
    return { member, pc, pcTokens, phone, phoneTokens, partner };
  }

  it('lists each browser (device, times, last service, この端末) and each service session apart from the browsers\' own web sessions', async () => {
    const { pcTokens } = await signedInEverywhere();
    const listed = await list(t, pcTokens.access_token);
    expect(listed.browsers.map((b) => [b.device, b.last_service, b.current])).toEqual([
      // The PC was used last, for the portal app.
      ['Chrome / Windows', 'ポータルアプリ', true],
      ['Safari / iPhone', 'メンバーID', false],
      // The inject() default User-Agent, which no browser sends.
      ['その他', 'Net Answer', false],
    ]);
    expect(listed.browsers[0]!.last_used_at).toBeGreaterThan(listed.browsers[0]!.created_at);
    // The web client's sessions are their browsers'; the portal app's (from the PC's session) and Net Answer's are listed.
    expect(listed.services.map((s) => [s.client_id, s.name, s.current]).sort()).toEqual([
      ['SIAP004', 'Net Answer', false],
      ['SIAP005', 'ポータルアプリ', false],
    ]);
  });

  it('ends one browser with its tokens, logged; the other browser and the services of neither go on', async () => {
    const { member, pcTokens, phone, phoneTokens, partner } = await signedInEverywhere();
    const before = await list(t, pcTokens.access_token);
    const iphone = before.browsers.find((b) => b.device === 'Safari / iPhone')!;
    expect((await end(t, pcTokens.access_token, 'browser', iphone.id)).json().result_code).toBe(0);
    expect([await isLive(t, phoneTokens.access_token), await isLive(t, pcTokens.access_token), await isLive(t, partner.access_token)]).toEqual([false, true, true]);
    // The iPhone asks for the password again.
    expect(codeOf(await phone.authorize(t, requestQuery(PARTNER)))).toBeNull();
    const after = await list(t, pcTokens.access_token);
    expect(after.browsers.map((b) => b.device)).toEqual(['Chrome / Windows', 'その他']);
    expect(await eventRows(t, member.id, 'sso_session_ended')).toHaveLength(1);
  });

  it('ends the browser of the request: the PC\'s portal app session that came from it ends too', async () => {
    const { pc, pcTokens, phoneTokens } = await signedInEverywhere();
    const listed = await list(t, pcTokens.access_token);
    expect(listed.services.map((s) => s.client_id)).toContain('SIAP005');
    expect((await end(t, pcTokens.access_token, 'browser', listed.browsers.find((b) => b.current)!.id)).json().result_code).toBe(0);
    expect(await isLive(t, pcTokens.access_token)).toBe(false);
    expect(codeOf(await pc.authorize(t, requestQuery(PARTNER)))).toBeNull();
    const seenFromPhone = await list(t, phoneTokens.access_token);
    expect(seenFromPhone.services.map((s) => s.client_id)).toEqual(['SIAP004']);
    expect(seenFromPhone.browsers.map((b) => [b.device, b.current])).toEqual([['Safari / iPhone', true], ['その他', false]]);
  });

  it('ends one service session, logged; the browsers go on', async () => {
    const { member, pc, pcTokens, partner } = await signedInEverywhere();
    const netAnswer = (await list(t, pcTokens.access_token)).services.find((s) => s.client_id === 'SIAP004')!;
    expect((await end(t, pcTokens.access_token, 'service', netAnswer.id)).json().result_code).toBe(0);
    expect([await isLive(t, partner.access_token), await isLive(t, pcTokens.access_token)]).toEqual([false, true]);
    expect(codeOf(await pc.authorize(t, requestQuery(PARTNER)))).toBeTruthy();
    expect((await eventRows(t, member.id, 'session_revoked')).length).toBe(1);
    expect((await list(t, pcTokens.access_token)).services.map((s) => s.client_id)).toEqual(['SIAP005']);
  });

  it('answers an id that is not the member\'s live session as any other, ending nothing; a wrong kind is 901', async () => {
    const one = await signedInEverywhere();
    const other = await signedInEverywhere();
    const theirs = await list(t, other.pcTokens.access_token);
    for (const [kind, id] of [['browser', theirs.browsers[0]!.id], ['service', theirs.services[0]!.id], ['browser', 'no-such-session'], ['service', theirs.browsers[0]!.id]] as const) {
      expect((await end(t, one.pcTokens.access_token, kind, id)).json(), `${kind} ${id}`).toMatchObject({ result_code: 0 });
    }
    expect(await list(t, other.pcTokens.access_token)).toEqual(theirs);
    expect((await end(t, one.pcTokens.access_token, 'everything', 'x')).json().result_code).toBe(901);
    expect((await call(t, '/api/user/sessions/end', one.pcTokens.access_token, { kind: 'browser' })).json().result_code).toBe(901);
  });

  it('is the member\'s own apps\' to call (account:write): a partner\'s token is refused', async () => {
    const { partner } = await signedInEverywhere();
    expect((await call(t, '/api/user/sessions', partner.access_token)).statusCode).toBe(403);
    expect((await call(t, '/api/user/sessions/end', partner.access_token, { kind: 'browser', id: 'x' })).statusCode).toBe(403);
  });
});
