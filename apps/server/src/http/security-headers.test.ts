import { describe, expect, it } from 'vitest';
import { withTestApp } from '../test-support/test-app.ts';

describe('security headers', () => {
  const t = withTestApp('sqlite');
  const https = withTestApp('sqlite', { PUBLIC_ORIGIN: 'https://id.example.com' });

  it('sends a strict CSP with no inline script, no framing, nosniff and a referrer policy', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("form-action 'self' http://sso.test siap005portal:");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.headers['strict-transport-security']).toBeUndefined();
  });

  it('adds HSTS when served over HTTPS', async () => {
    const res = await https.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.headers['strict-transport-security']).toContain('max-age=63072000');
  });

  it('answers unknown API paths with a JSON body and / with a redirect to /content/', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/nothing' });
    expect(res.statusCode).toBe(404);
    expect(res.json().result_message).toBe('URLをご確認ください。');
    const root = await t.app.inject({ method: 'GET', url: '/' });
    expect(root.statusCode).toBe(302);
    expect(root.headers.location).toBe('/content/');
  });
});
