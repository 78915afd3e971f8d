import { request, type IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { LIMITS } from '@sso/contracts/constants';
import { bearer, exchange, form, getCode, loginTokens, tokenRequest, WEB_REDIRECT, withTestApp, type TestApp } from '../test-support/test-app.ts';
import { DIALECTS } from '../test-support/test-db.ts';
import { withListeningApp } from '../test-support/vitest.ts';
import { eventually } from '../test-support/eventually.ts';
import { newMember } from '../test-support/recover-kit.ts';
import { eventRows, UA } from '../test-support/account-change-kit.ts';
import { memberWithPasskey } from '../test-support/passkey-kit.ts';
import { addressOf } from '../modules/activity/activity-repo.ts';
import { unlockMember } from '../modules/support/member-actions.ts';
import { startManagementListener } from '../http/management.ts';
import { USER_AGENT_MAX } from './security-events.ts';

/** Every field of a security event line (docs/security-events.md, "Schema"). */
const FIELDS = ['log_type', 'event', 'reason', 'method', 'member_ref', 'client_id', 'operator_id', 'address', 'user_agent', 'request_id'];
const ADDRESS = '203.0.113.5';

type Line = Record<string, unknown>;

/** The app's log, captured through its logStream (app.ts AppOverrides); each test takes the lines written since its start. */
function capturedLog() {
  const lines: string[] = [];
  const stream = { write: (chunk: string) => void lines.push(...chunk.split('\n').filter(Boolean)) };
  const parsed = () => lines.map((l) => JSON.parse(l) as Line);
  return {
    stream,
    clear: () => void (lines.length = 0),
    raw: () => lines.join('\n'),
    security: (event?: string) => parsed().filter((l) => l.log_type === 'security' && (event === undefined || l.event === event)),
    requestIds: () => new Set(parsed().filter((l) => l.msg === 'request completed').map((l) => l.reqId)),
  };
}

const login = (t: TestApp, id: string, password: string, ua = UA) =>
  t.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    remoteAddress: ADDRESS,
    headers: { 'user-agent': ua },
    payload: { id, password, recaptcha_token: 'dev', client_id: 'SIAP009' },
  });

const refresh = (t: TestApp, refreshToken: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/auth/token',
    remoteAddress: ADDRESS,
    ...form({ grant_type: 'refresh_token', refresh_token: refreshToken, client_id: 'SIAP009', redirect_uri: WEB_REDIRECT, terminal_id: 'terminal-1' }, { 'user-agent': UA }),
  });

/** The line has every documented field and no other, and names none of the member's contact details or secrets. */
function expectSchema(line: Line | undefined, secrets: string[]) {
  expect(Object.keys(line ?? {}).filter((k) => FIELDS.includes(k)).sort()).toEqual([...FIELDS].sort());
  expect(line).toMatchObject({ log_type: 'security', msg: 'security event', address: ADDRESS, user_agent: UA });
  expect(line?.request_id).toBe(line?.reqId);
  const text = JSON.stringify(line);
  for (const secret of secrets) expect(text).not.toContain(secret);
}

/** The value of one series as Prometheus scrapes it: GET /metrics of a management listener (http/management.ts). */
async function series(name: string): Promise<number> {
  const listener = await startManagementListener({ port: 0 });
  const text = await fetch(`http://${listener.host}:${listener.port}/metrics`).then((r) => r.text());
  await listener.close();
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  return line ? Number(line.slice(name.length + 1)) : 0;
}

describe.each(DIALECTS)('security events (%s)', (dialect) => {
  const log = capturedLog();
  const t = withTestApp(dialect, {}, { logStream: log.stream });

  it('writes one login.failed line for a wrong password, with the member reference, client, address, user agent and request id, and no e-mail, phone or password', async () => {
    const member = await newMember(t);
    log.clear();
    const res = await login(t, member.email, 'Wrong-pass9');
    expect(res.json().result_code).toBe(200);
    const lines = log.security();
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ event: 'login.failed', reason: 'wrong_password', member_ref: member.id, client_id: 'SIAP009', method: null, operator_id: null });
    expect(lines[0]?.request_id).toBe(res.headers['x-request-id']);
    expectSchema(lines[0], [member.email, member.tel, 'Wrong-pass9', member.password]);
  });

  it('writes an unknown account\'s failure without a member reference, and without the id that was typed', async () => {
    log.clear();
    const typed = 'nobody.at.all@example.com';
    await login(t, typed, 'Wrong-pass9');
    const lines = log.security();
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ event: 'login.failed', reason: 'unknown_account', member_ref: null, client_id: 'SIAP009' });
    expectSchema(lines[0], [typed, 'nobody', 'Wrong-pass9']);
  });

  it('writes one account.locked line when the 10th wrong password engages the lock, then login.failed locked', async () => {
    const member = await newMember(t);
    log.clear();
    for (let i = 0; i < LIMITS.loginFailuresBeforeLock; i++) await login(t, member.email, `Wrong-pass${i}`);
    const locked = log.security('account.locked');
    expect(locked).toHaveLength(1);
    expect(locked[0]).toMatchObject({ reason: 'login', member_ref: member.id, client_id: 'SIAP009' });
    expectSchema(locked[0], [member.email, member.tel, 'Wrong-pass9']);
    expect(log.security('login.failed').map((l) => l.reason)).toEqual(Array(LIMITS.loginFailuresBeforeLock).fill('wrong_password'));
    // While locked, even the right password is refused: a login.failed of reason locked, no second lock.
    expect((await login(t, member.email, member.password)).json().result_code).toBe(203);
    expect(log.security('login.failed').at(-1)).toMatchObject({ reason: 'locked', member_ref: member.id });
    expect(log.security('account.locked')).toHaveLength(1);
    expect(log.raw()).not.toContain(member.email);
  });

  it('writes one token.refresh_reuse line when a rotated refresh token comes back, and no token', async () => {
    const member = await newMember(t);
    const tokens = await loginTokens(t.app, { user: member.email, password: member.password });
    const rotated = await refresh(t, tokens.refresh_token);
    expect(rotated.statusCode).toBe(200);
    // Past the retry grace (decision 0002): the old token again is a reuse.
    t.clock.advance(LIMITS.refreshRetryGraceMs + 1);
    log.clear();
    const reused = await refresh(t, tokens.refresh_token);
    expect(reused.json().error).toBe('invalid_grant');
    const lines = log.security();
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ event: 'token.refresh_reuse', member_ref: member.id, client_id: 'SIAP009', reason: null });
    expect(lines[0]?.request_id).toBe(reused.headers['x-request-id']);
    const { access_token, refresh_token } = rotated.json() as { access_token: string; refresh_token: string };
    expectSchema(lines[0], [member.email, member.tel, tokens.refresh_token, tokens.access_token, access_token, refresh_token]);
  });

  it('writes the successful login with its method, once, at the code\'s issue', async () => {
    const member = await newMember(t);
    log.clear();
    await loginTokens(t.app, { user: member.email, password: member.password });
    const lines = log.security();
    expect(lines.map((l) => l.event)).toEqual(['login.succeeded']);
    expect(lines[0]).toMatchObject({ method: 'password', member_ref: member.id, client_id: 'SIAP009' });
  });

  it('caps the user agent and writes a reCAPTCHA refusal of the login as one login.failed line', async () => {
    const member = await newMember(t);
    log.clear();
    const long = `Mozilla/5.0 ${'x'.repeat(2 * USER_AGENT_MAX)}`;
    await login(t, member.email, 'Wrong-pass9', long);
    expect(log.security()[0]?.user_agent).toBe(long.slice(0, USER_AGENT_MAX));
    log.clear();
    const refused = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      remoteAddress: ADDRESS,
      payload: { id: member.email, password: member.password, recaptcha_token: 'fail-bot', client_id: 'SIAP009' },
    });
    expect(refused.statusCode).toBe(400);
    const lines = log.security();
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ event: 'login.failed', reason: 'recaptcha_refused', member_ref: null, user_agent: 'lightMyRequest' });
  });

  it('counts the logins, the lockout and the reuse into the metrics that GET /metrics of the management listener answers', async () => {
    const before = {
      success: await series('sso_logins_total{outcome="success"}'),
      wrong: await series('sso_logins_total{outcome="wrong_password"}'),
      locked: await series('sso_logins_total{outcome="locked"}'),
      reuse: await series('sso_refresh_token_reuse_total'),
      lockEvents: await series('sso_security_events_total{event="account.locked"}'),
    };
    const member = await newMember(t);
    await loginTokens(t.app, { user: member.email, password: member.password });
    const tokens = await loginTokens(t.app, { user: member.email, password: member.password });
    expect((await refresh(t, tokens.refresh_token)).statusCode).toBe(200);
    t.clock.advance(LIMITS.refreshRetryGraceMs + 1);
    expect((await refresh(t, tokens.refresh_token)).statusCode).toBe(400);
    for (let i = 0; i < LIMITS.loginFailuresBeforeLock; i++) await login(t, member.email, `Wrong-pass${i}`);
    await login(t, member.email, member.password);
    expect(await series('sso_logins_total{outcome="success"}')).toBe(before.success + 2);
    expect(await series('sso_logins_total{outcome="wrong_password"}')).toBe(before.wrong + LIMITS.loginFailuresBeforeLock);
    expect(await series('sso_logins_total{outcome="locked"}')).toBe(before.locked + 1);
    expect(await series('sso_refresh_token_reuse_total')).toBe(before.reuse + 1);
    expect(await series('sso_security_events_total{event="account.locked"}')).toBe(before.lockEvents + 1);
  });

  it('puts the request\'s address on the activity row of a password change, for support and in the member\'s own log', async () => {
    const member = await newMember(t);
    const tokens = await loginTokens(t.app, { user: member.email, password: member.password });
    log.clear();
    const changed = await t.app.inject({
      method: 'POST',
      url: '/api/auth/password/change',
      remoteAddress: '198.51.100.7',
      headers: { 'user-agent': UA, ...bearer(tokens.access_token) },
      payload: { current_password: member.password, password: 'After-pass2', password_check: 'After-pass2' },
    });
    expect(changed.json().result_code, changed.body).toBe(0);
    const rows = await eventRows(t, member.id, 'password_changed');
    expect(rows.map((r) => addressOf(r.detail))).toEqual(['198.51.100.7']);
    expect(log.security('password.changed')).toEqual([expect.objectContaining({ reason: 'change', member_ref: member.id, address: '198.51.100.7' })]);
    // The member's own log shows it beside the device, as the login and account-change history does.
    const again = await loginTokens(t.app, { user: member.email, password: 'After-pass2' });
    const activities = await t.app.inject({ method: 'POST', url: '/api/user/activities', headers: bearer(again.access_token), payload: { page: 1 } });
    expect(activities.statusCode).toBe(200);
    expect(activities.json().activities).toContainEqual(expect.objectContaining({ address: '198.51.100.7' }));
  });

  it('puts the address on the activity row of a passkey added, and writes passkey.added', async () => {
    log.clear();
    const { member } = await memberWithPasskey(t);
    const rows = await eventRows(t, member.id, 'passkey_added');
    expect(rows.map((r) => addressOf(r.detail))).toEqual(['127.0.0.1']);
    expect(log.security('passkey.added')).toEqual([expect.objectContaining({ member_ref: member.id, address: '127.0.0.1' })]);
  });

  it('writes one code.replay when a used authorization code comes back, none for a code never issued', async () => {
    const member = await newMember(t);
    const code = await getCode(t.app, { user: member.email, password: member.password });
    expect((await exchange(t.app, code)).statusCode).toBe(200);
    log.clear();
    expect((await exchange(t.app, code)).json().error).toBe('invalid_grant');
    expect((await exchange(t.app, 'never-issued-code')).json().error).toBe('invalid_grant');
    expect(log.security()).toEqual([expect.objectContaining({ event: 'code.replay', member_ref: member.id, client_id: 'SIAP009' })]);
    expect(log.raw()).not.toContain(code);
  });

  it('writes fresh_proof.failed for a wrong current password at the re-authentication, without the password', async () => {
    const member = await newMember(t);
    const tokens = await loginTokens(t.app, { user: member.email, password: member.password });
    log.clear();
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/reauth', remoteAddress: ADDRESS, headers: { 'user-agent': UA, ...bearer(tokens.access_token) }, payload: { password: 'Wrong-pass9' } });
    expect(res.json().result_code).toBe(902);
    const lines = log.security();
    expect(lines).toEqual([expect.objectContaining({ event: 'fresh_proof.failed', method: 'password', member_ref: member.id })]);
    expectSchema(lines[0], [member.email, 'Wrong-pass9', tokens.access_token]);
  });

  it('writes the support desk\'s unlock as operator.action and account.unlocked, through the app\'s log outside a request', async () => {
    const member = await newMember(t);
    for (let i = 0; i < LIMITS.loginFailuresBeforeLock; i++) await login(t, member.email, `Wrong-pass${i}`);
    log.clear();
    const deps = { db: t.testDb.db.kysely, clock: t.clock, issuer: 'http://sso.test', notifier: { send: async () => {} }, cardMaster: { cardsByEndingAndBirthday: async () => [] } };
    const operator = { operatorId: 'op-support-7', role: 'support', address: '192.0.2.10', requestId: 'req-support', reason: '本人からの電話' } as const;
    await unlockMember(deps, operator, member.id);
    const lines = log.security();
    expect(lines.map((l) => [l.event, l.reason])).toEqual([
      ['operator.action', 'member.unlock'],
      ['account.unlocked', 'support'],
    ]);
    for (const line of lines) expect(line).toMatchObject({ member_ref: member.id, operator_id: 'op-support-7', address: null, request_id: null });
    expect(log.raw()).not.toContain('本人からの電話');
  });

  it('writes no event for a refresh token it never issued: no reuse without a rotation', async () => {
    log.clear();
    await tokenRequest(t.app, { grant_type: 'refresh_token', refresh_token: 'no-such-token', client_id: 'SIAP009', terminal_id: 'terminal-1' });
    expect(log.security()).toEqual([]);
    expect(log.requestIds().size).toBe(1);
  });
});

/** A JSON post over a socket of its own (`agent: false`) or the shared one; `late`: the body's second half 50 ms after its first. */
function postJson(url: string, payload: unknown, o: { headers: Record<string, string>; late?: boolean; agent?: false }): Promise<IncomingMessage> {
  const body = JSON.stringify(payload);
  return new Promise<IncomingMessage>((resolve, reject) => {
    const req = request(url, { method: 'POST', agent: o.agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...o.headers } });
    req.on('response', (res) => res.resume().on('end', () => resolve(res))).on('error', reject);
    if (!o.late) return void req.end(body);
    req.write(body.slice(0, 10));
    setTimeout(() => req.end(body.slice(10)), 50);
  });
}

/**
 * Over a real socket the body arrives after the hooks that entered the request's context, and a task
 * after the answer may outlive the connection (lib/request-context.ts). At LOG_LEVEL=warn no request
 * line reads the address before.
 */
describe('security events over a listening server', () => {
  const log = capturedLog();
  const t = withListeningApp('sqlite', { LOG_LEVEL: 'warn' }, { logStream: log.stream });

  it('names the request whose body was read from the socket', async () => {
    const member = await newMember(t);
    log.clear();
    // The body's second half a moment after the first: its parsing ends in a later socket event.
    const answered = await postJson(`${t.origin}/api/auth/login`, { id: member.email, password: 'Wrong-pass9', recaptcha_token: 'dev', client_id: 'SIAP009' }, {
      headers: { 'user-agent': UA, 'x-request-id': 'lb-req-0001' },
      late: true,
    });
    expect(answered.headers['x-request-id']).toBe('lb-req-0001');
    const lines = log.security();
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ event: 'login.failed', member_ref: member.id, request_id: 'lb-req-0001', reqId: 'lb-req-0001', address: '127.0.0.1', user_agent: UA });
  });

  it('gives the address to an activity row written after the answer, on a connection closed with it', async () => {
    const member = await newMember(t);
    const answered = await postJson(`${t.origin}/api/auth/password/forgot`, { email: member.email }, { headers: { connection: 'close' }, agent: false });
    expect(answered.statusCode).toBe(200);
    await eventually(async () => {
      const rows = await eventRows(t, member.id, 'password_reset_requested');
      expect(rows.map((r) => addressOf(r.detail))).toEqual(['127.0.0.1']);
    });
  });

  // LOG_LEVEL=warn drops the request lines, never the security events (docs/security-events.md).
  it('still writes the failed login at LOG_LEVEL=warn, where no request line is written', async () => {
    const member = await newMember(t);
    log.clear();
    await login(t, member.email, 'Wrong-pass9');
    expect(log.requestIds().size).toBe(0);
    expect(log.security()).toEqual([expect.objectContaining({ event: 'login.failed', member_ref: member.id, level: 30 })]);
  });
});
