import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { registerErrorHandling } from './error-handler.ts';

const busy = () => Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' });
const refused = () => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });

async function appThrowing(): Promise<ReturnType<typeof Fastify>> {
  const app = Fastify({ logger: false });
  registerErrorHandling(app);
  app.post('/api/member/busy', async () => Promise.reject(busy()));
  app.post('/api/member/refused', async () => Promise.reject(refused()));
  app.post('/api/member/bug', async () => Promise.reject(new Error('SELECT * FROM users failed at /srv/app.ts:1')));
  app.post('/api/auth/token', { config: { oauth: true } }, async () => Promise.reject(new Error('Connection terminated unexpectedly')));
  app.post('/api/auth/revoke', { config: { oauth: true } }, async () => Promise.reject(new Error('bug')));
  // The doors a browser navigates through (SPEC.md section 7 "Redirects (GET)", the authorize and OIDC
  // logout endpoints), marked as http/route.ts marks the catalogue's redirect answers.
  app.get('/api/auth/authorize', { config: { oauth: true, navigable: true } }, async () => Promise.reject(refused()));
  app.post('/api/auth/authorize', { config: { oauth: true, navigable: true } }, async () => Promise.reject(busy()));
  app.get('/api/auth/end_session', { config: { navigable: true } }, async () => Promise.reject(refused()));
  app.get('/api/redirect/resume_app', { config: { navigable: true } }, async () => Promise.reject(busy()));
  app.get('/api/member/bug', async () => Promise.reject(new Error('bug')));
  await app.ready();
  return app;
}

describe('error handler: a database that is out answers as the out-of-service mode does (SPEC.md section 8)', () => {
  it('answers member APIs result 501 with HTTP 503, and the OAuth endpoints temporarily_unavailable', async () => {
    const app = await appThrowing();
    for (const url of ['/api/member/busy', '/api/member/refused']) {
      const res = await app.inject({ method: 'POST', url });
      expect(res.statusCode, url).toBe(503);
      expect(res.headers['retry-after']).toBe('30');
      expect(res.headers['cache-control']).toBe('no-store');
      // With the support reference of the logged line (docs/operations.md).
      expect(res.json()).toEqual({ result_code: 501, result_message: 'ただいまサービスを停止しております。しばらく経ってから再度お試しください。', reference: expect.any(String) });
    }
    const token = await app.inject({ method: 'POST', url: '/api/auth/token' });
    expect([token.statusCode, token.json()]).toEqual([503, { error: 'temporarily_unavailable', error_description: 'the service is temporarily unavailable', reference: expect.any(String) }]);
    await app.close();
  });

  const doors = [
    ['GET', '/api/auth/authorize'],
    ['POST', '/api/auth/authorize'],
    ['GET', '/api/auth/end_session'],
    ['GET', '/api/redirect/resume_app'],
  ] as const;

  it('sends a browser navigation to the /503 page instead of a JSON body', async () => {
    const app = await appThrowing();
    for (const headers of [{ 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document' }, { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' }]) {
      for (const [method, url] of doors) {
        const res = await app.inject({ method, url, headers });
        expect([res.statusCode, res.headers.location], `${method} ${url}`).toEqual([303, '/content/503']);
        expect([res.headers['retry-after'], res.headers['cache-control']]).toEqual(['30', 'no-store']);
      }
    }
    // A failure that is not the database stays the failure it is.
    expect((await app.inject({ method: 'GET', url: '/api/member/bug', headers: { 'sec-fetch-mode': 'navigate' } })).statusCode).toBe(500);
    // A partner server's token request asking for text/html first (Java's default Accept) is no navigation.
    const token = await app.inject({ method: 'POST', url: '/api/auth/token', headers: { accept: 'text/html, image/gif, image/jpeg, *; q=.2, */*; q=.2' } });
    expect([token.statusCode, token.json().error]).toEqual([503, 'temporarily_unavailable']);
    await app.close();
  });

  it('keeps the JSON answers of the same doors called by a script or a server', async () => {
    const app = await appThrowing();
    for (const headers of [{ 'sec-fetch-mode': 'cors', accept: 'text/html' }, { accept: 'application/json' }, {}]) {
      for (const [method, url] of doors) {
        const res = await app.inject({ method, url, headers });
        expect(res.statusCode, `${method} ${url}`).toBe(503);
        expect(res.headers['content-type']).toMatch(/^application\/json/);
      }
    }
    await app.close();
  });

  it('still answers any other failure 500 (server_error on OAuth endpoints), with no internal text', async () => {
    const app = await appThrowing();
    const bug = await app.inject({ method: 'POST', url: '/api/member/bug' });
    expect([bug.statusCode, bug.json()]).toEqual([500, { result_code: 500, result_message: '予期しない問題のため処理できませんでした。', reference: expect.any(String) }]);
    const oauth = await app.inject({ method: 'POST', url: '/api/auth/revoke' });
    expect([oauth.statusCode, oauth.json().error]).toEqual([500, 'server_error']);
    await app.close();
  });
});
