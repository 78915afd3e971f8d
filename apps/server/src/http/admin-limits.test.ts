import { describe, expect, it } from 'vitest';
import { bearer, TEST_ORIGIN, withTestApp } from '../test-support/test-app.ts';
import { DIALECTS } from '../test-support/test-db.ts';
import { networkList } from './admin-limits.ts';

/*
 * The operator console's limits (http/admin-limits.ts; docs/operations.md): other networks get 404
 * at /admin and /api/admin as if neither existed; other sites' pages cannot post to the operator API.
 */

describe('networkList', () => {
  it('matches addresses and ranges of both families, IPv4-mapped IPv6 as IPv4', () => {
    const inside = networkList(['10.0.0.0/8', '192.0.2.7', '2001:db8::/32']);
    for (const a of ['10.1.2.3', '192.0.2.7', '::ffff:10.9.9.9', '2001:db8::1']) expect(inside(a), a).toBe(true);
    for (const a of ['11.0.0.1', '192.0.2.8', '127.0.0.1', '2001:db9::1', 'garbage']) expect(inside(a), a).toBe(false);
  });
});

describe.each(DIALECTS)('the operator console limits (%s)', (dialect) => {
  const t = withTestApp(dialect, { ADMIN_ALLOWED_NETWORKS: '10.0.0.0/8', ADMIN_ALLOWED_ORIGINS: 'https://console.example.com' });
  const post = (url: string, p: { from?: string; headers?: Record<string, string> } = {}) =>
    t.app.inject({ method: 'POST', url, remoteAddress: p.from ?? '10.1.2.3', headers: p.headers ?? {}, payload: {} });

  it('answers 404 at /api/admin and /admin from another network, as an unknown path does; the member API is untouched', async () => {
    const unknown = await post('/api/nothing-here', { from: '203.0.113.9' });
    for (const url of ['/api/admin/me', '/api/admin/login/options', '/api/admin/clients']) {
      const res = await post(url, { from: '203.0.113.9' });
      expect(res.statusCode, url).toBe(404);
      expect(res.body).toBe(unknown.body);
    }
    const page = await t.app.inject({ method: 'GET', url: '/admin/clients', remoteAddress: '203.0.113.9' });
    expect(page.statusCode).toBe(404);
    // From inside: the guard answers (no token), the ceremony's options too.
    expect((await post('/api/admin/me')).statusCode).toBe(401);
    expect((await post('/api/admin/login/options')).statusCode).toBe(200);
    // Paths that only begin alike are not the console's.
    expect((await t.app.inject({ method: 'GET', url: '/api/health', remoteAddress: '203.0.113.9' })).statusCode).toBe(200);
    expect((await post('/api/administrator', { from: '203.0.113.9' })).statusCode).toBe(404);
  });

  it('holds for a path spelt otherwise that the router still takes to the console: percent-encoded, doubled slashes', async () => {
    for (const url of ['/api/%61dmin/me', '/api/ad%6Din/login/options', '/api%2Fadmin/me', '//api/admin/me', '/api//admin/login/options']) {
      const outside = await post(url, { from: '203.0.113.9' });
      expect(outside.statusCode, url).toBe(404);
      const crossSite = await post(url, { headers: { origin: 'https://evil.example' } });
      expect([403, 404], url).toContain(crossSite.statusCode);
    }
    for (const url of ['/%61dmin/clients', '/admin%2Fclients', '//admin/clients']) {
      expect((await t.app.inject({ method: 'GET', url, remoteAddress: '203.0.113.9' })).statusCode, url).toBe(404);
    }
  });

  it("refuses a browser request from another site's page (Origin or Sec-Fetch-Site), with or without a token", async () => {
    const sites: Record<string, string>[] = [{ origin: 'https://evil.example' }, { origin: TEST_ORIGIN }, { origin: 'null' }, { 'sec-fetch-site': 'cross-site', origin: 'https://console.example.com' }];
    for (const headers of sites) {
      for (const url of ['/api/admin/login/options', '/api/admin/me']) {
        const res = await post(url, { headers: { ...headers, ...bearer('op_whatever') } });
        expect(res.statusCode, `${url} ${JSON.stringify(headers)}`).toBe(403);
        expect(res.json()).toMatchObject({ result_code: 300 });
        // The refusal is an answer like any other: with the security headers.
        expect(res.headers['content-security-policy'], url).toBeDefined();
        expect(res.headers['x-content-type-options'], url).toBe('nosniff');
      }
    }
    expect((await post('/api/admin/login/options', { headers: { origin: 'https://console.example.com', 'sec-fetch-site': 'same-origin' } })).statusCode).toBe(200);
    // A request without Origin is no browser's cross-site post (the CLI, a monitoring probe): the token decides.
    expect((await post('/api/admin/me')).statusCode).toBe(401);
  });
});

describe('the operator console limits by default', () => {
  const t = withTestApp('sqlite');
  it("answers every network, and takes PUBLIC_ORIGIN's pages only", async () => {
    expect((await t.app.inject({ method: 'POST', url: '/api/admin/login/options', remoteAddress: '203.0.113.9', headers: { origin: TEST_ORIGIN }, payload: {} })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'POST', url: '/api/admin/login/options', headers: { origin: 'https://evil.example' }, payload: {} })).statusCode).toBe(403);
  });
});
