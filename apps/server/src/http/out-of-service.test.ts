import { describe, expect, it } from 'vitest';
import { DIALECTS } from '../test-support/test-db.ts';
import { withTestApp } from '../test-support/test-app.ts';

describe.each(DIALECTS)('out of service on %s', (dialect) => {
  const stopped = withTestApp(dialect, { OUT_OF_SERVICE: 'true' });
  const running = withTestApp(dialect);
  const login = { id: 'demo.card@example.com', password: 'Demo1234', recaptcha_token: 'dev', client_id: 'SIAP009' };

  it('answers every member API with result 501 and HTTP 503, before reading the request', async () => {
    for (const [url, payload] of [
      ['/api/auth/login', login],
      ['/api/user', {}],
      ['/api/subuser/cards', {}],
      ['/api/signup/open', 'not even json'],
    ] as const) {
      const res = await stopped.app.inject({ method: 'POST', url, payload: payload as object });
      expect(res.statusCode, url).toBe(503);
      expect(res.headers['retry-after']).toBe('600');
      expect(res.json()).toEqual({ result_code: 501, result_message: 'ただいまサービスを停止しております。しばらく経ってから再度お試しください。' });
    }
  });

  it('answers the OAuth endpoints temporarily_unavailable, keeps the health check, and changes nothing', async () => {
    const token = await stopped.app.inject({ method: 'POST', url: '/api/auth/token', payload: { grant_type: 'refresh_token', refresh_token: 'x', client_id: 'SIAP009' } });
    expect([token.statusCode, token.json().error]).toEqual([503, 'temporarily_unavailable']);
    for (const url of ['/api/health', '/api/health/live', '/api/health/ready']) {
      expect((await stopped.app.inject({ method: 'GET', url })).statusCode, url).toBe(200);
    }
    const before = await stopped.testDb.db.kysely.selectFrom('login_throttle').selectAll().execute();
    await stopped.app.inject({ method: 'POST', url: '/api/auth/login', payload: { ...login, password: 'wrong' } });
    expect(await stopped.testDb.db.kysely.selectFrom('login_throttle').selectAll().execute()).toEqual(before);
  });

  // Every door a browser opens a page by (SPEC.md section 2 error routes; section 7 "Redirects (GET)";
  // the authorize and OIDC logout endpoints) ends on the /503 page, never on a raw JSON body.
  const doors = [
    ['GET', '/api/auth/authorize?response_type=code&client_id=SIAP009&redirect_uri=https%3A%2F%2Fexample.com%2Fcb&state=s'],
    ['POST', '/api/auth/authorize?response_type=code&client_id=SIAP009'],
    ['GET', '/api/auth/end_session?client_id=SIAP009'],
    ['GET', '/api/redirect/resume_app?client_id=SIAP009&state=s&esid=e'],
    ['GET', '/api/redirect/user_one_time_token?one_time_token=t&target=top'],
  ] as const;

  it('sends a browser navigation to /503 from every door, whether told by Fetch Metadata or by Accept', async () => {
    const navigations = [
      { 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document', accept: 'text/html,application/xhtml+xml,*/*;q=0.8' },
      { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' },
    ];
    for (const headers of navigations) {
      for (const [method, url] of doors) {
        const res = await stopped.app.inject({ method, url, headers });
        expect([res.statusCode, res.headers.location], `${method} ${url}`).toEqual([303, '/content/503']);
        expect(res.headers['retry-after']).toBe('600');
        expect(res.headers['cache-control']).toBe('no-store');
      }
    }
  });

  it('keeps the JSON answers of API calls: fetch/XHR, JSON accept, and the token endpoint', async () => {
    const calls = [
      { 'sec-fetch-mode': 'cors', 'sec-fetch-dest': 'empty', accept: 'text/html' },
      { 'sec-fetch-mode': 'same-origin', accept: '*/*' },
      { accept: 'application/json' },
      {},
    ];
    for (const headers of calls) {
      for (const [method, url] of doors) {
        const res = await stopped.app.inject({ method, url, headers });
        expect(res.statusCode, `${method} ${url}`).toBe(503);
        expect(res.headers['content-type']).toMatch(/^application\/json/);
      }
      const token = await stopped.app.inject({ method: 'POST', url: '/api/auth/token', headers, payload: { grant_type: 'refresh_token', refresh_token: 'x', client_id: 'SIAP009' } });
      expect([token.statusCode, token.json().error]).toEqual([503, 'temporarily_unavailable']);
    }
  });

  it("answers a partner server's call JSON even when it asks for text/html first, as Java's HttpURLConnection does", async () => {
    const java = { accept: 'text/html, image/gif, image/jpeg, *; q=.2, */*; q=.2' };
    const basic = { authorization: `Basic ${Buffer.from('SIAP004:secret').toString('base64')}` };
    const calls = [
      ['POST', '/api/auth/token', { grant_type: 'refresh_token', refresh_token: 'x', client_id: 'SIAP009' }, {}],
      ['POST', '/api/auth/revoke', { token: 'x', client_id: 'SIAP009' }, {}],
      ['POST', '/api/subuser/introspect', { token: 'x' }, basic],
      ['GET', '/api/auth/userinfo', undefined, { authorization: 'Bearer x' }],
    ] as const;
    for (const [method, url, payload, auth] of calls) {
      const res = await stopped.app.inject({ method, url, headers: { ...java, ...auth }, ...(payload ? { payload } : {}) });
      expect([res.statusCode, res.headers['content-type']], `${method} ${url}`).toEqual([503, expect.stringMatching(/^application\/json/)]);
    }
    // The same Accept at a door a browser opens is still a navigation.
    const door = await stopped.app.inject({ method: 'GET', url: '/api/auth/authorize?client_id=SIAP009', headers: java });
    expect([door.statusCode, door.headers.location]).toEqual([303, '/content/503']);
  });

  it('is off by default', async () => {
    const res = await running.app.inject({ method: 'POST', url: '/api/auth/login', payload: login });
    expect([res.statusCode, res.json().result_code]).toEqual([200, 0]);
  });
});
