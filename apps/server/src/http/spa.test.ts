import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { PRODUCTION_ENV, withTestApp } from '../test-support/test-app.ts';
import { metricLabels, metricValue } from '../test-support/metrics.ts';

/**
 * A web build of its own, laid out as scripts/spa-vite.ts writes one (a `.br` and a `.gz`
 * beside each text file), so that these tests need no `npm run build:web`.
 */
function fakeWebDist(files: Record<string, string>): string {
  const dist = mkdtempSync(join(tmpdir(), 'spa-dist-'));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(dist, name, '..'), { recursive: true });
    writeFileSync(join(dist, name), text);
    writeFileSync(join(dist, `${name}.br`), brotliCompressSync(text));
    writeFileSync(join(dist, `${name}.gz`), gzipSync(text));
  }
  return dist;
}

const INDEX = '<!doctype html><html lang="ja"><body><div id="root"></div></body></html>';
const SCRIPT = `console.log(${JSON.stringify('x'.repeat(200))});`;

describe('the SPA precompressed', () => {
  const dist = fakeWebDist({ 'index.html': INDEX, 'assets/index-abc123.js': SCRIPT });
  const t = withTestApp('sqlite', { WEB_DIST: dist });
  afterAll(() => rmSync(dist, { recursive: true, force: true }));

  const get = (url: string, encoding?: string) =>
    t.app.inject({ method: 'GET', url, headers: encoding ? { 'accept-encoding': encoding } : {} });

  it('sends an asset as brotli to a browser accepting it, cached for a year', async () => {
    const res = await get('/content/assets/index-abc123.js', 'gzip, deflate, br');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toMatch(/javascript/);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers.vary).toMatch(/accept-encoding/i);
    expect(brotliDecompressSync(res.rawPayload).toString()).toBe(SCRIPT);
  });

  it('sends gzip to a browser without brotli, and the plain file to one accepting neither', async () => {
    const gzip = await get('/content/assets/index-abc123.js', 'gzip');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).toString()).toBe(SCRIPT);
    const plain = await get('/content/assets/index-abc123.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(SCRIPT);
    // Whatever the encoding, the hashed asset is cached for a year (@fastify/send's own header off).
    for (const res of [gzip, plain]) expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('sends index.html compressed and never cached, at the root and as the fallback of any route', async () => {
    for (const url of ['/content/', '/content/authorize?client_id=SIAP009', '/content/no/such/page']) {
      const res = await get(url, 'br');
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-encoding'], url).toBe('br');
      expect(res.headers['content-type'], url).toMatch(/^text\/html/);
      expect(res.headers['cache-control'], url).toBe('no-cache');
      expect(brotliDecompressSync(res.rawPayload).toString(), url).toBe(INDEX);
      const plain = await get(url);
      expect(plain.body, url).toBe(INDEX);
      expect(plain.headers['cache-control'], url).toBe('no-cache');
    }
  });
});

describe('the SPA source maps', () => {
  const MAP = '{"version":3,"sources":["../../src/main.tsx"],"mappings":""}';
  const files = { 'index.html': INDEX, 'assets/index-abc123.js': SCRIPT, 'assets/index-abc123.js.map': MAP };
  const dist = fakeWebDist(files);
  const production = withTestApp('sqlite', { ...PRODUCTION_ENV, WEB_DIST: dist });
  const development = withTestApp('sqlite', { WEB_DIST: dist });
  afterAll(() => rmSync(dist, { recursive: true, force: true }));

  it('are not served in production, in any encoding, while the script itself is (decision 0023)', async () => {
    for (const encoding of [undefined, 'gzip', 'br']) {
      const headers = encoding ? { 'accept-encoding': encoding } : {};
      const map = await production.app.inject({ method: 'GET', url: '/content/assets/index-abc123.js.map', headers });
      expect(map.statusCode, encoding).toBe(404);
      expect(map.body, encoding).not.toContain('mappings');
      const script = await production.app.inject({ method: 'GET', url: '/content/assets/index-abc123.js', headers });
      expect(script.statusCode, encoding).toBe(200);
    }
  });

  it('are served outside production, for the browser developer tools', async () => {
    const res = await development.app.inject({ method: 'GET', url: '/content/assets/index-abc123.js.map' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe(MAP);
  });
});

describe('the operator console, a build of its own at /admin', () => {
  const ADMIN_INDEX = '<!doctype html><html lang="ja"><body><div id="admin"></div></body></html>';
  const ADMIN_SCRIPT = `console.log(${JSON.stringify('admin'.repeat(50))});`;
  const web = fakeWebDist({ 'index.html': INDEX, 'assets/index-abc123.js': SCRIPT });
  const admin = fakeWebDist({ 'index.html': ADMIN_INDEX, 'assets/index-def456.js': ADMIN_SCRIPT });
  const t = withTestApp('sqlite', { WEB_DIST: web, ADMIN_DIST: admin });
  afterAll(() => {
    rmSync(web, { recursive: true, force: true });
    rmSync(admin, { recursive: true, force: true });
  });

  it("answers the console's index.html for its routes (the enrolment link's among them), never the member SPA's", async () => {
    for (const url of ['/admin/', '/admin/enrol', '/admin/members/abc']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.body, url).toBe(ADMIN_INDEX);
      expect(res.headers['cache-control'], url).toBe('no-cache');
    }
    expect((await t.app.inject({ method: 'GET', url: '/admin' })).headers.location).toBe('/admin/');
  });

  it("sends the console's assets from its own build, and each build's assets only under its own prefix", async () => {
    const res = await t.app.inject({ method: 'GET', url: '/admin/assets/index-def456.js' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe(ADMIN_SCRIPT);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect((await t.app.inject({ method: 'GET', url: '/content/assets/index-abc123.js' })).body).toBe(SCRIPT);
    // The member SPA's fallback answers its own index.html for the console's asset: never the console's file.
    expect((await t.app.inject({ method: 'GET', url: '/content/assets/index-def456.js' })).body).not.toBe(ADMIN_SCRIPT);
    expect((await t.app.inject({ method: 'GET', url: '/content/' })).body).toBe(INDEX);
  });

  it('leaves the operator API to its routes: /api/admin is not the console', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/admin/me' });
    expect(res.body).not.toBe(ADMIN_INDEX);
    expect(res.statusCode).toBe(401);
  });
});

describe('the operator console kept to ADMIN_ALLOWED_NETWORKS', () => {
  const web = fakeWebDist({ 'index.html': INDEX });
  const admin = fakeWebDist({ 'index.html': '<!doctype html><title>console</title>', 'assets/index-def456.js': 'console.log(1);' });
  const t = withTestApp('sqlite', { WEB_DIST: web, ADMIN_DIST: admin, ADMIN_ALLOWED_NETWORKS: '10.0.0.0/8' });
  afterAll(() => {
    rmSync(web, { recursive: true, force: true });
    rmSync(admin, { recursive: true, force: true });
  });

  it("answers the console's page and its files 404 from another network, as an unknown path, while the member SPA is served", async () => {
    for (const url of ['/admin/', '/admin/login', '/admin/enrol', '/admin/assets/index-def456.js']) {
      const res = await t.app.inject({ method: 'GET', url, remoteAddress: '192.0.2.10' });
      expect(res.statusCode, url).toBe(404);
      expect(res.body, url).not.toContain('console');
    }
    expect((await t.app.inject({ method: 'GET', url: '/admin/', remoteAddress: '10.1.2.3' })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/content/', remoteAddress: '192.0.2.10' })).statusCode).toBe(200);
  });
});

describe("the build's files in the request-duration histogram", () => {
  const dist = fakeWebDist({ 'index.html': INDEX, 'assets/index-abc123.js': SCRIPT, 'assets/style-def456.css': 'body{}' });
  // With a request log, as every app but a test's runs: the durations are recorded where its line is written (http/request-log.ts).
  const t = withTestApp('sqlite', { WEB_DIST: dist }, { logStream: { write: () => {} } });
  afterAll(() => rmSync(dist, { recursive: true, force: true }));

  it('are one series under /content/*, not one per hashed file name that each build renames', async () => {
    const files = () => metricValue('sso_http_request_duration_seconds', { method: 'GET', route: '/content/*', status_code: 200 }, 'count');
    const before = await files();
    for (const url of ['/content/assets/index-abc123.js', '/content/assets/style-def456.css', '/content/', '/content/no/such/page']) {
      expect((await t.app.inject({ method: 'GET', url })).statusCode, url).toBe(200);
    }
    expect(await files()).toBe(before + 4);
    const routes = (await metricLabels('sso_http_request_duration_seconds')).map((l) => String(l.route));
    expect(routes.filter((r) => r.includes('abc123') || r.includes('def456'))).toEqual([]);
  });
});
