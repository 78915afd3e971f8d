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

  it('is off by default', async () => {
    const res = await running.app.inject({ method: 'POST', url: '/api/auth/login', payload: login });
    expect([res.statusCode, res.json().result_code]).toEqual([200, 0]);
  });
});
