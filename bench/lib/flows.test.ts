import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refreshGrant, startListeningApp, type ListeningApp } from '@sso/server/test-support';
import { passwordLogin, refresh, refreshOpenid } from './flows.ts';
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
});
