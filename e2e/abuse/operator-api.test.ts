import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, API_KEYS, type ApiKey } from '@sso/contracts/api-catalogue';
import { OPERATOR_MESSAGES } from '@sso/contracts/operators';
import { ROOT, SoftAuthenticator } from '@sso/server/test-support';
import { sha256 } from '@sso/server/test-support/internals';
import { startSystem, type RunningSystem } from '../support/server.ts';
import { DEMO_CARD, login, post, type Answer } from './support/client.ts';
import { openSystemDb } from './support/db.ts';

/**
 * The operator API under attack (decision 0032), against a running system: member tokens, expired
 * and foreign operator tokens, cross-site posts, enumeration of operators, and guessing enrolment
 * links. Every refusal changes nothing.
 */

const run = promisify(execFile);
const REASON = { reason: '攻撃の確認' };
const INVALID_LINK = { result_code: 902, result_message: OPERATOR_MESSAGES.enrolmentInvalid };

let system: RunningSystem;
let db: ReturnType<typeof openSystemDb>;
let origin: string;

/** The operator API's keys that need an operator token. */
const GUARDED = API_KEYS.filter((k): k is ApiKey => (API[k] as { role?: string }).role !== undefined && (API[k] as { role?: string }).role !== 'public');

/** The bootstrap command on the host, as docs/operations.md runs it: the enrolment link's token. */
async function bootstrap(email: string): Promise<string> {
  const { stdout } = await run(process.execPath, ['--import', 'tsx', 'apps/server/src/admin-cli.ts', 'bootstrap', '--email', email, '--name', '管理者'], {
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: 'development', DATABASE_URL: system.databaseUrl, PUBLIC_ORIGIN: origin, SEED_DEMO: 'false', LOG_LEVEL: 'warn' },
  });
  const token = /#token=([A-Za-z0-9_-]+)$/m.exec(stdout)?.[1];
  if (!token) throw new Error(`no enrolment link in ${stdout}`);
  return token;
}

const adminPost = (path: string, token: string | undefined, json: unknown = {}, headers: Record<string, string> = {}) => post(origin, path, { json, ...(token ? { token } : {}), headers });

/** Enrols a passkey by the link and signs in: the authenticator and the operator token. */
async function operator(link: string) {
  const authenticator = new SoftAuthenticator(origin);
  const options = await adminPost('/api/admin/enrol/options', undefined, { token: link });
  expect(options.status, options.text).toBe(200);
  const credential = authenticator.register(options.json!.options as Record<string, unknown>);
  expect((await adminPost('/api/admin/enrol', undefined, { token: link, name: 'PC', credential })).json).toMatchObject({ result_code: 0 });
  const token = await signIn(authenticator);
  return { authenticator, token };
}

async function signIn(authenticator: SoftAuthenticator): Promise<string> {
  const options = (await adminPost('/api/admin/login/options', undefined)).json!.options as Record<string, unknown>;
  const res = await adminPost('/api/admin/login', undefined, { credential: authenticator.authenticate(options) });
  expect(res.status, res.text).toBe(200);
  return res.json!.access_token as string;
}

const shown = (a: Answer) => ({ status: a.status, body: a.json, challenge: a.headers.get('www-authenticate') });

beforeAll(async () => {
  system = await startSystem({ quiet: true });
  origin = system.origin;
  db = openSystemDb(system.databaseUrl);
});

afterAll(async () => {
  await db?.close();
  await system?.stop();
});

describe('the operator API under attack', () => {
  let admin: Awaited<ReturnType<typeof operator>>;
  beforeAll(async () => {
    admin = await operator(await bootstrap('abuse.admin@card.example.jp'));
  });

  it("refuses a member's token on every guarded operator endpoint (403 insufficient_scope), before reading the body", async () => {
    const member = await login(origin, DEMO_CARD.user, DEMO_CARD.password);
    expect(GUARDED.length).toBeGreaterThan(10);
    for (const key of GUARDED) {
      const res = await adminPost(API[key].path, member.access_token, { client_id: 'SIAP009', operator_id: 'x', ...REASON });
      expect(res.status, key).toBe(403);
      expect(res.json, key).toMatchObject({ result_code: 300 });
      expect(res.headers.get('www-authenticate'), key).toContain('insufficient_scope');
    }
    // And an operator token reaches no member API.
    expect((await post(origin, '/api/user', { token: admin.token })).status).toBe(401);
  });

  it("refuses expired and foreign (another operator's ended) tokens alike, 401", async () => {
    const other = await operator(await bootstrap('abuse.other@card.example.jp'));
    expect((await adminPost('/api/admin/logout', other.token)).json).toMatchObject({ result_code: 0 });
    const ended = await adminPost('/api/admin/clients', other.token);
    // Idle past its limit: its last use set 16 minutes back in the database the system writes.
    const idle = await operator(await bootstrap('abuse.idle@card.example.jp'));
    await db.kysely.updateTable('operator_sessions').set({ last_used_at: Date.now() - 16 * 60_000 }).where('token_hash', '=', sha256(idle.token)).execute();
    const expired = await adminPost('/api/admin/clients', idle.token);
    const garbage = await adminPost('/api/admin/clients', `op_${'A'.repeat(43)}`);
    for (const a of [ended, expired, garbage]) expect(a.status).toBe(401);
    expect(shown(ended)).toEqual(shown(expired));
    expect(shown(ended)).toEqual(shown(garbage));
    // The dead session stays dead: no later use revives it.
    expect((await adminPost('/api/admin/me', idle.token)).status).toBe(401);
  });

  it("refuses a cross-site post with an administrator's valid token (Origin of another site), changing nothing", async () => {
    const before = await db.kysely.selectFrom('oauth_clients').select(['client_id', 'enabled']).where('client_id', '=', 'SIAP002').executeTakeFirstOrThrow();
    for (const headers of [{ origin: 'https://evil.example' }, { origin: 'null' }, { 'sec-fetch-site': 'cross-site' }] as Record<string, string>[]) {
      const res = await adminPost('/api/admin/clients/disable', admin.token, { client_id: 'SIAP002', ...REASON }, headers);
      expect(res.status, JSON.stringify(headers)).toBe(403);
      expect(res.json).toMatchObject({ result_code: 300 });
    }
    expect(await db.kysely.selectFrom('oauth_clients').select(['client_id', 'enabled']).where('client_id', '=', 'SIAP002').executeTakeFirstOrThrow()).toEqual(before);
    // The console's own page is let through (the token and the fresh proof decide).
    expect((await adminPost('/api/admin/clients', admin.token, {}, { origin })).status).toBe(200);
  });

  it('tells nobody but an administrator whether an e-mail is an operator, and sign-in failures tell nothing', async () => {
    const support = await adminPost('/api/admin/operators/invite', admin.token, { email: 'abuse.support@card.example.jp', display_name: 'サポート', role: 'support' });
    expect(support.json).toMatchObject({ result_code: 0 });
    const supportOperator = await operator(/#token=(.+)$/.exec(support.json!.enrolment_url as string)![1]!);
    // A support operator (and anyone lesser) gets the same 403 for an operator's e-mail and an unknown one.
    const known = await adminPost('/api/admin/operators/invite', supportOperator.token, { email: 'abuse.admin@card.example.jp', display_name: 'x', role: 'support' });
    const unknown = await adminPost('/api/admin/operators/invite', supportOperator.token, { email: 'nobody.here@card.example.jp', display_name: 'x', role: 'support' });
    expect(known.status).toBe(403);
    expect(shown(known)).toEqual(shown(unknown));
    expect((await adminPost('/api/admin/operators', supportOperator.token)).status).toBe(403);
    // Only an administrator learns it.
    expect((await adminPost('/api/admin/operators/invite', admin.token, { email: 'abuse.admin@card.example.jp', display_name: 'x', role: 'support' })).json).toMatchObject({ result_code: 902, result_message: OPERATOR_MESSAGES.alreadyOperator });
    // Sign-in: an unknown credential and a known one with a bad signature answer alike.
    const options = (await adminPost('/api/admin/login/options', undefined)).json!.options as Record<string, unknown>;
    const stranger = new SoftAuthenticator(origin);
    stranger.register({ challenge: 'AAAA', rp: { id: new URL(origin).hostname, name: 'x' }, user: { id: 'AAAA', name: 'x', displayName: 'x' }, pubKeyCredParams: [{ type: 'public-key', alg: -7 }] });
    const unknownCredential = await adminPost('/api/admin/login', undefined, { credential: stranger.authenticate(options) });
    const options2 = (await adminPost('/api/admin/login/options', undefined)).json!.options as Record<string, unknown>;
    const signed = admin.authenticator.authenticate(options2) as { response: Record<string, string> };
    const forged = { ...signed, response: { ...signed.response, signature: Buffer.from('not a signature').toString('base64url') } };
    const badSignature = await adminPost('/api/admin/login', undefined, { credential: forged });
    expect(unknownCredential.json).toMatchObject({ result_code: 902, result_message: OPERATOR_MESSAGES.notAccepted });
    expect(shown(badSignature)).toEqual(shown(unknownCredential));
  });

  it('bounds the guessing of enrolment links per address: after 20 wrong links even a right one is refused from there, alike', async () => {
    const right = await bootstrap('abuse.guess@card.example.jp');
    const answers: Answer[] = [];
    for (let i = 0; i < 20; i++) answers.push(await adminPost('/api/admin/enrol/options', undefined, { token: `guess${i}`.padEnd(43, 'x') }));
    for (const a of answers) expect(a.json).toEqual(INVALID_LINK);
    const refused = await adminPost('/api/admin/enrol/options', undefined, { token: right });
    expect(refused.json).toEqual(INVALID_LINK);
    expect(shown(refused)).toEqual(shown(answers[0]!));
    // The link itself is not used up: it still works from another address (the bound is the guesser's).
    const stored = await db.kysely.selectFrom('operator_enrolments').select('used_at').where('token_hash', '=', sha256(right)).executeTakeFirstOrThrow();
    expect(stored.used_at).toBeNull();
  });
});
