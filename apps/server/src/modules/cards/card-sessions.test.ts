import { describe, expect, it } from 'vitest';
import { cardRefreshTokenResponseSchema } from '@sso/contracts/cards';
import { bearer, exchange, form, getCode, TEST_ORIGIN, tokenRequest, withTestApp, type TestApp } from '../../test-support/test-app.ts';
import { DIALECTS } from '../../test-support/test-db.ts';
import { eventRows } from '../../test-support/account-change-kit.ts';
import { cardMember, openMember } from '../../test-support/cards-kit.ts';

const PORTAL = 'SIAP005';
const PORTAL_REDIRECT = `${TEST_ORIGIN}/dev/partner/${PORTAL}/callback`;
const OK = { result_code: 0, result_message: '正常に処理しました。' };

/** The member's session in the portal app: the code flow as the portal runs it, bound to its terminal. */
async function portalSession(t: TestApp, m: { email: string; password: string }, terminal = 'portal-terminal-1') {
  const code = await getCode(t.app, { clientId: PORTAL, redirectUri: PORTAL_REDIRECT, user: m.email, password: m.password });
  const res = await exchange(t.app, code, { client_id: PORTAL, redirect_uri: PORTAL_REDIRECT, terminal_id: terminal });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { access_token: string; refresh_token: string };
}

const works = async (t: TestApp, access: string) => (await t.app.inject({ method: 'POST', url: '/api/user', headers: bearer(access) })).statusCode === 200;

const revoke = (t: TestApp, access: string, fields: Record<string, string | undefined>) =>
  t.app.inject({ method: 'POST', url: '/api/subuser/revoke', ...form(fields, bearer(access)) });

const cardRefresh = (t: TestApp, fields: Record<string, string | undefined>) =>
  t.app.inject({ method: 'POST', url: '/api/auth/card/refresh_token', ...form(fields) });

describe.each(DIALECTS)('partner sessions of a member (%s)', (dialect) => {
  const t = withTestApp(dialect);

  it('ends the member\'s own partner session by its refresh or access token, logged with the client', async () => {
    const m = await cardMember(t);
    const portal = await portalSession(t, m);
    const res = await revoke(t, m.access_token, { token: portal.refresh_token, client_id: PORTAL, token_type_hint: 'refresh_token' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual(OK);
    expect(await works(t, portal.access_token)).toBe(false);
    expect(await works(t, m.access_token)).toBe(true);
    const rows = await t.testDb.db.kysely.selectFrom('activity_log').select(['event', 'client_id']).where('user_id', '=', m.id).where('event', '=', 'session_revoked').execute();
    expect(rows).toEqual([{ event: 'session_revoked', client_id: PORTAL }]);

    const second = await portalSession(t, m, 'portal-terminal-2');
    expect((await revoke(t, m.access_token, { token: second.access_token, client_id: PORTAL })).json()).toEqual(OK);
    expect(await works(t, second.access_token)).toBe(false);
  });

  it('ignores another member\'s token, a token of another client and an unknown token, answering the same', async () => {
    const a = await cardMember(t);
    const b = await cardMember(t);
    const bPortal = await portalSession(t, b);
    for (const fields of [
      { token: bPortal.refresh_token, client_id: PORTAL },
      { token: bPortal.access_token, client_id: PORTAL },
      { token: b.refresh_token, client_id: 'SIAP009' },
      { token: 'unknown-token', client_id: PORTAL },
    ]) {
      const res = await revoke(t, a.access_token, fields);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual(OK);
    }
    // a's own portal token named with the wrong client is ignored too.
    const aPortal = await portalSession(t, a);
    expect((await revoke(t, a.access_token, { token: aPortal.refresh_token, client_id: 'SIAP009' })).json()).toEqual(OK);
    expect(await works(t, aPortal.access_token)).toBe(true);
    expect(await works(t, bPortal.access_token)).toBe(true);
    expect(await works(t, b.access_token)).toBe(true);
    expect(await eventRows(t, a.id, 'session_revoked')).toEqual([]);
    expect(await eventRows(t, b.id, 'session_revoked')).toEqual([]);
  });

  it('requires the token and the client (901)', async () => {
    const m = await cardMember(t);
    const res = await revoke(t, m.access_token, { token_type_hint: 'refresh_token' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ result_code: 901, validation_errors: [{ key: 'token' }, { key: 'client_id' }] });
  });

  it('/api/auth/card/refresh_token rotates the portal\'s tokens and answers the first active card\'s esid', async () => {
    const m = await cardMember(t);
    const portal = await portalSession(t, m);
    const res = await cardRefresh(t, { refresh_token: portal.refresh_token, client_id: PORTAL, terminal_id: 'portal-terminal-1' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const body = cardRefreshTokenResponseSchema.parse(res.json());
    expect(body).toMatchObject({ token_type: 'Bearer', esid: m.holder.active.esid });
    expect(body.refresh_token).not.toBe(portal.refresh_token);
    expect(await works(t, body.access_token)).toBe(true);
    // The new refresh token rotates again; the old one, replayed after the retry grace, ends the whole session.
    const next = await cardRefresh(t, { refresh_token: body.refresh_token!, client_id: PORTAL, terminal_id: 'portal-terminal-1' });
    expect(next.statusCode).toBe(200);
    t.clock.advance(6_000);
    const replay = await cardRefresh(t, { refresh_token: portal.refresh_token, client_id: PORTAL, terminal_id: 'portal-terminal-1' });
    expect(replay.statusCode).toBe(400);
    expect(replay.json()).toMatchObject({ error: 'invalid_grant' });
    expect(await works(t, (next.json() as { access_token: string }).access_token)).toBe(false);
    expect(await eventRows(t, m.id, 'token_replay')).toHaveLength(1);
  });

  it('answers esid null for a member without an active card', async () => {
    const open = await openMember(t);
    const portal = await portalSession(t, open);
    const res = await cardRefresh(t, { refresh_token: portal.refresh_token, client_id: PORTAL, terminal_id: 'portal-terminal-1' });
    expect(cardRefreshTokenResponseSchema.parse(res.json()).esid).toBeNull();
  });

  it('refuses another terminal, the web client and malformed requests with OAuth errors', async () => {
    const m = await cardMember(t);
    const portal = await portalSession(t, m);
    const other = await cardRefresh(t, { refresh_token: portal.refresh_token, client_id: PORTAL, terminal_id: 'someone-else' });
    expect(other.json()).toMatchObject({ error: 'invalid_grant' });
    // The web client refreshes at the token endpoint; here it is refused before its token is used.
    const web = await cardRefresh(t, { refresh_token: m.refresh_token, client_id: 'SIAP009', terminal_id: 'terminal-1' });
    expect(web.statusCode).toBe(400);
    expect(web.json()).toMatchObject({ error: 'unauthorized_client' });
    const stillGood = await tokenRequest(t.app, { grant_type: 'refresh_token', refresh_token: m.refresh_token, client_id: 'SIAP009', terminal_id: 'terminal-1' });
    expect(stillGood.statusCode, stillGood.body).toBe(200);
    expect((await cardRefresh(t, { client_id: PORTAL })).json()).toMatchObject({ error: 'invalid_request' });
    expect((await cardRefresh(t, { refresh_token: 'x', client_id: 'NOPE' })).statusCode).toBe(401);
    const broken = await t.app.inject({ method: 'POST', url: '/api/auth/card/refresh_token', headers: { 'content-type': 'application/json' }, payload: '{' });
    expect(broken.statusCode).toBe(400);
    expect(broken.json()).toMatchObject({ error: 'invalid_request' });
    // And the portal's token, after all that, still refreshes.
    expect((await cardRefresh(t, { refresh_token: portal.refresh_token, client_id: PORTAL, terminal_id: 'portal-terminal-1' })).statusCode).toBe(200);
  });
});
