import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basicAuth, refreshGrant, startListeningApp, type ListeningApp } from '@sso/server/test-support';
import { PARTNER_CLIENT_ID, partnerRefresh, passwordLogin, refresh, refreshOpenid } from './flows.ts';
import { httpClient, type HttpClient } from './http.ts';
import { seedMembers } from './seed.ts';
import { OK } from './stats.ts';

describe("the bench's member flows (flows.ts) against the real server", () => {
  let t: ListeningApp;
  let http: HttpClient;
  beforeAll(async () => {
    t = await startListeningApp('sqlite');
    http = httpClient(t.origin, 1);
  });
  afterAll(async () => {
    await http.close();
    await t.close();
  });

  it('keeps the plain refresh chain plain after a password login, whose family (with openid) becomes the session that answers ID tokens', async () => {
    const [m] = await seedMembers({ databaseUrl: t.testDb.url, origin: t.origin, count: 1 });
    if (!m) throw new Error('no member seeded');
    expect(await refresh(http, m)).toEqual(OK);
    const plainBefore = m.refresh;
    expect(await passwordLogin(http, m)).toEqual(OK);
    expect(m.refresh).toBe(plainBefore);
    // What `refresh` measures (against node-oidc-provider's plain refresh) signs no ID token.
    const answer = await http.post('/api/auth/token', { form: refreshGrant(m.refresh, m.terminalId) });
    const body = JSON.parse(answer.text) as Record<string, unknown>;
    expect(answer.status).toBe(200);
    expect(body.id_token).toBeUndefined();
    m.refresh = String(body.refresh_token);
    expect(await refresh(http, m)).toEqual(OK);
    // The login's family answered an ID token: it is the openid session now, on the login's terminal.
    expect(m.openid.terminalId).toBe(m.terminalId);
    expect(await refreshOpenid(http, m)).toEqual(OK);
  });

  it("authenticates the partner's refresh with the client's secret (a wrong one is refused), rotates its chain and answers no ID token", async () => {
    const [m] = await seedMembers({ databaseUrl: t.testDb.url, origin: t.origin, count: 1 });
    if (!m) throw new Error('no member seeded');
    const form = { grant_type: 'refresh_token', refresh_token: m.partner.refresh };
    // The same request with a wrong secret: refused before the token is read (RFC 6749 section 5.2).
    const wrong = await http.post('/api/auth/token', { form }, basicAuth(PARTNER_CLIENT_ID, `wrong-secret-${PARTNER_CLIENT_ID}`));
    expect(wrong.status).toBe(401);
    expect((JSON.parse(wrong.text) as Record<string, unknown>).error).toBe('invalid_client');
    // Without client authentication, a confidential client's token is not refreshed either.
    const anonymous = await http.post('/api/auth/token', { form: { ...form, client_id: PARTNER_CLIENT_ID } });
    expect(anonymous.status).toBe(401);
    const first = m.partner.refresh;
    expect(await partnerRefresh(http, m)).toEqual(OK);
    expect(m.partner.refresh).not.toBe(first);
    const second = m.partner.refresh;
    expect(await partnerRefresh(http, m)).toEqual(OK);
    expect(m.partner.refresh).not.toBe(second);
    // The rotated-out token is spent: presented again (with the right secret) it is refused.
    const replay = await http.post('/api/auth/token', { form }, basicAuth(PARTNER_CLIENT_ID, `demo-secret-${PARTNER_CLIENT_ID}`));
    expect(replay.status).toBe(400);
    expect((JSON.parse(replay.text) as Record<string, unknown>).error).toBe('invalid_grant');
  });
});
