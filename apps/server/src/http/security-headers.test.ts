import { describe, expect, it } from 'vitest';
import { withTestApp } from '../test-support/test-app.ts';

describe('security headers', () => {
  const t = withTestApp('sqlite');
  const https = withTestApp('sqlite', { PUBLIC_ORIGIN: 'https://id.example.com' });
  const thirdParty = withTestApp('sqlite', {
    ANALYTICS_SCRIPT_ORIGINS: 'https://www.googletagmanager.com, https://www.google-analytics.com',
    MONITORING_SCRIPT_ORIGINS: 'https://rum.example.net',
  });
  const recaptcha = withTestApp('sqlite', { RECAPTCHA_SECRET: 'secret-1' });
  const devCors = withTestApp('sqlite', { DEV_CORS_ORIGINS: 'http://localhost:5173' });
  const directive = (csp: string, name: string) => csp.split(';').map((d) => d.trim()).find((d) => d.startsWith(`${name} `));

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

  it('allows no third-party script origin unless configured', async () => {
    const csp = String((await t.app.inject({ method: 'GET', url: '/api/health' })).headers['content-security-policy']);
    expect(directive(csp, 'script-src')).toBe("script-src 'self'");
    expect(directive(csp, 'connect-src')).toBe("connect-src 'self'");
  });

  it("allows Google's reCAPTCHA script and frame only where a reCAPTCHA secret is configured", async () => {
    const csp = String((await recaptcha.app.inject({ method: 'GET', url: '/api/health' })).headers['content-security-policy']);
    expect(directive(csp, 'script-src')).toBe("script-src 'self' https://www.google.com/recaptcha/ https://www.gstatic.com/recaptcha/");
    expect(directive(csp, 'frame-src')).toBe("frame-src 'self' https://www.google.com/recaptcha/ https://recaptcha.google.com/recaptcha/");
    expect(csp).not.toContain('unsafe-inline');
    const plain = String((await t.app.inject({ method: 'GET', url: '/api/health' })).headers['content-security-policy']);
    expect(directive(plain, 'frame-src')).toBeUndefined();
  });

  it('allows the configured analytics and monitoring origins, and still no inline script', async () => {
    const csp = String((await thirdParty.app.inject({ method: 'GET', url: '/api/health' })).headers['content-security-policy']);
    const origins = 'https://www.googletagmanager.com https://www.google-analytics.com https://rum.example.net';
    expect(directive(csp, 'script-src')).toBe(`script-src 'self' ${origins}`);
    expect(directive(csp, 'connect-src')).toBe(`connect-src 'self' ${origins}`);
    expect(csp).not.toContain('unsafe-inline');
    expect(directive(csp, 'default-src')).toBe("default-src 'self'");
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

  it('lets the dev server origin read the step-up challenge in WWW-Authenticate (RFC 9470)', async () => {
    const res = await devCors.app.inject({ method: 'POST', url: '/api/user', headers: { origin: 'http://localhost:5173' } });
    expect(res.statusCode).toBe(401);
    expect(res.headers['www-authenticate']).toBe('Bearer');
    expect(res.headers['access-control-allow-origin']).toBe('http://localhost:5173');
    expect(res.headers['access-control-expose-headers']).toBe('WWW-Authenticate');
    const preflight = await devCors.app.inject({
      method: 'OPTIONS',
      url: '/api/user',
      headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'POST' },
    });
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers['access-control-allow-headers']).toBe('Authorization, Content-Type');
  });

  it('sends no CORS headers to an origin that is not configured', async () => {
    const res = await devCors.app.inject({ method: 'POST', url: '/api/user', headers: { origin: 'https://evil.example' } });
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    expect(res.headers['access-control-expose-headers']).toBeUndefined();
    const none = await devCors.app.inject({ method: 'POST', url: '/api/user' });
    expect(none.headers['access-control-expose-headers']).toBeUndefined();
  });
});
