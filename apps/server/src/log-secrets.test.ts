import { Writable } from 'node:stream';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { redactQuery } from './http/log-serializers.ts';
import { onetimeToken, redeem } from './test-support/direct-login-kit.ts';
import { activate, registerForToken, newOpenEmail, OPEN_PASSWORD } from './test-support/open-signup-kit.ts';
import { forgotForToken, newMember, reset } from './test-support/recover-kit.ts';
import { codeFor, finishSignup, newEmail, post, smsToEmailStep } from './test-support/signup-kit.ts';
import { loginTokens, withTestApp } from './test-support/test-app.ts';
import { DIALECTS } from './test-support/test-db.ts';

/** The fields whose values are secrets, in requests (JSON, forms, queries) and in answers (JSON, the Location's query). */
const SECRET_FIELDS = new Set([
  'password',
  'password_check',
  'user_pass',
  'current_password',
  'onetime_password',
  'otp_email',
  'onetime_token',
  'one_time_token',
  'register_token',
  'login_ticket',
  'code',
  'code_verifier',
  'code_challenge',
  'state',
  'access_token',
  'refresh_token',
  'token',
]);

/** Every secret that goes through the app's inject, found by its field name wherever it travels. */
function recordSecrets(app: { inject: (o: InjectOptions) => Promise<LightMyRequestResponse> }, secrets: Set<string>) {
  const fromQuery = (url: string | undefined) => {
    const at = url?.indexOf('?') ?? -1;
    if (url && at >= 0) for (const [k, v] of new URLSearchParams(url.slice(at + 1))) if (SECRET_FIELDS.has(k) && v !== '') secrets.add(v);
  };
  const fromObject = (value: unknown) => {
    if (!value || typeof value !== 'object') return;
    for (const [k, v] of Object.entries(value)) if (SECRET_FIELDS.has(k) && typeof v === 'string' && v !== '') secrets.add(v);
  };
  const original = app.inject.bind(app);
  app.inject = async (o: InjectOptions) => {
    fromQuery(typeof o.url === 'string' ? o.url : undefined);
    if (typeof o.payload === 'string') fromQuery(`?${o.payload}`);
    else fromObject(o.payload);
    const res = await original(o);
    fromQuery(typeof res.headers.location === 'string' ? res.headers.location : undefined);
    try {
      fromObject(res.json());
    } catch {
      // not JSON: a page or a redirect
    }
    return res;
  };
}

/** Whether the log text holds the secret: a short numeric code only as a whole number, not inside a timestamp. */
const appearsIn = (log: string, secret: string) =>
  /^\d{4,8}$/.test(secret) ? new RegExp(`(?<![0-9.])${secret}(?![0-9.])`).test(log) : log.includes(secret);

describe('request log redaction', () => {
  it('keeps the path and the harmless parameters, and replaces every other value', () => {
    expect(redactQuery('/api/user')).toBe('/api/user');
    expect(redactQuery('/content/recover/password?onetime_token=abc')).toBe('/content/recover/password?onetime_token=[redacted]');
    expect(redactQuery('/api/auth/authorize?client_id=SIAP009&state=s3cret&code_challenge=x&scope=openid%20user%3Aread&novel=1')).toBe(
      '/api/auth/authorize?client_id=SIAP009&state=[redacted]&code_challenge=[redacted]&scope=openid%20user%3Aread&novel=[redacted]',
    );
    expect(redactQuery('/cb?code=abc&code=def&%63ode=ghi&bad%=x&&flag')).toBe('/cb?code=[redacted]&code=[redacted]&%63ode=[redacted]&bad%=[redacted]&&flag=[redacted]');
  });
});

describe.each(DIALECTS)('secrets never reach the request log (%s)', (dialect) => {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  const t = withTestApp(dialect, { LOG_LEVEL: 'trace' }, { logStream: stream });
  const secrets = new Set<string>();
  beforeAll(() => recordSecrets(t.app, secrets));

  it('logs a card sign-up, an open sign-up, a password reset and a direct login without one of their secrets', async () => {
    // A card sign-up by the SMS path, to the new member's tokens.
    const email = newEmail();
    const registerToken = await smsToEmailStep(t, email);
    expect((await post(t, '/api/signup/otp', { register_token: registerToken, onetime_password: await codeFor(t, email) })).json().result_code).toBe(0);
    const cardAccess = await finishSignup(t, registerToken, email);

    // An open sign-up: the mail's link opened in the browser, then the activation.
    const openEmail = newOpenEmail();
    const activation = await registerForToken(t, openEmail);
    await t.app.inject({ method: 'GET', url: `/content/signup/open/activate?onetime_token=${activation}` });
    expect((await activate(t, activation)).statusCode).toBe(200);
    await loginTokens(t.app, { user: openEmail, password: OPEN_PASSWORD });

    // A password reset: the link opened, the new password set, a login with it.
    const member = await newMember(t);
    const resetLink = await forgotForToken(t, member.email);
    await t.app.inject({ method: 'GET', url: `/content/recover/password?onetime_token=${resetLink}` });
    expect((await reset(t, resetLink, 'After-pass12')).statusCode).toBe(200);
    await loginTokens(t.app, { user: member.email, password: 'After-pass12' });

    // A direct login: a one-time token through the redirect endpoint, and one redeemed for tokens.
    const forRedirect = await onetimeToken(t, cardAccess);
    expect((await t.app.inject({ method: 'GET', url: `/api/redirect/user_one_time_token?one_time_token=${forRedirect}&target=top` })).statusCode).toBe(303);
    expect((await redeem(t, await onetimeToken(t, cardAccess))).statusCode).toBe(200);
    await t.app.inject({ method: 'GET', url: `/dev/partner/SIAP002/callback?code=${'c'.repeat(43)}&state=partner-state` });
    secrets.add('c'.repeat(43)).add('partner-state');

    const log = lines.join('');
    // The log is there, with each request's path; the secrets that went by are not.
    for (const path of ['/api/signup/otp', '/api/signup/authorize?client_id=SIAP009', '/api/auth/password/reset', 'onetime_token=[redacted]', 'one_time_token=[redacted]&target=top', '/api/auth/direct_login/token']) {
      expect(log, path).toContain(path);
    }
    expect(secrets.size).toBeGreaterThan(25);
    expect([...secrets].filter((s) => appearsIn(log, s))).toEqual([]);
  });
});
