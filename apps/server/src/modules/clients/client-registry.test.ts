import { readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { decodeProtectedHeader, exportJWK, generateKeyPair, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RESULT } from '@sso/contracts/result-codes';
import { buildApp } from '../../app.ts';
import { loadConfig, REPO_ROOT } from '../../config.ts';
import { openDatabase, type Db } from '../../db/database.ts';
import { AppError } from '../../lib/app-error.ts';
import { ManualClock } from '../../lib/clock.ts';
import { eventually } from '../../test-support/eventually.ts';
import { codeGrant } from '../../test-support/oauth-client.ts';
import { basic, form, getCode, NET_ANSWER, postAuthorize, PRODUCTION_ENV, TEST_ORIGIN, tokenRequest, VERIFIER, withTestApp } from '../../test-support/test-app.ts';
import { createMigratedTestDb, DIALECTS, type TestDb } from '../../test-support/test-db.ts';
import { CLIENT_ADMIN_MESSAGES, registerClient, retireOldSecrets, rotateClientSecret, setClientEnabled, updateClient, type ClientAdminDeps } from '../client-admin/client-admin.ts';
import { JWT_BEARER_ASSERTION } from '../oauth/client-assertion.ts';
import { importClientsIfEmpty, openClientStore, type ClientStore } from './client-store.ts';
import { loadClientsFile, parseClientsFile } from './clients.ts';

/** A key of jose's generateKeyPair. */
type SigningKey = Awaited<ReturnType<typeof generateKeyPair>>['privateKey'];

/*
 * The client registry of the database (docs/decisions/0031-clients-in-the-database.md): CLIENTS_FILE
 * as the first start's import, the administrator's services, and the change reaching the running
 * app (and a second node) by the registry's version within CLIENTS_REFRESH_MS.
 */

const FILE_CLIENTS = JSON.parse(readFileSync(`${REPO_ROOT}config/clients.json`, 'utf8')) as { client_id: string }[];
const REFRESH = { CLIENTS_REFRESH_MS: '100' };

/** Another node's start on the same database: the whole app, its own clock, optionally its log. */
async function startNode(db: Db, url: string, env: Record<string, string> = {}, log?: string[]): Promise<FastifyInstance> {
  const config = loadConfig({
    NODE_ENV: 'test',
    DATABASE_URL: url,
    PUBLIC_ORIGIN: TEST_ORIGIN,
    SEED_DEMO: 'true',
    WEB_DIST: '/nonexistent',
    SMTP_SINK_PORT: '0',
    LOGIN_NOTICE: 'false',
    ...REFRESH,
    ...env,
  });
  return buildApp(config, { db, clock: new ManualClock(Date.now()), ...(log ? { logStream: { write: (line: string) => void log.push(line) } } : { logger: false }) });
}

/** The 901 a service throws, as the field keys it names. */
async function refusedKeys(p: Promise<unknown>): Promise<string[]> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  if (!(e instanceof AppError)) throw new Error(`expected a 901, got ${String(e)}`);
  expect(e.resultCode).toBe(RESULT.VALIDATION);
  return (e.validationErrors ?? []).map((v) => v.key);
}

const redirectOf = (clientId: string) => `${TEST_ORIGIN}/dev/partner/${clientId}/callback`;

/** A partner's client as an administrator registers it: confidential, Net Answer may introspect its tokens. */
const partner = (clientId: string, extra: Record<string, unknown> = {}) => ({
  client_id: clientId,
  name: `提携サービス ${clientId}`,
  type: 'confidential',
  redirect_uris: [redirectOf(clientId)],
  scopes: ['openid', 'user:read'],
  audience: ['SIAP004'],
  ...extra,
});

describe.each(DIALECTS)('the client registry in the database (%s)', (dialect) => {
  const t = withTestApp(dialect, REFRESH);
  let admin: ClientStore;
  let deps: ClientAdminDeps;
  beforeAll(async () => {
    // The administrator's node: the services and a store of their own on the app's database.
    admin = await openClientStore({ db: t.testDb.db.kysely, clock: t.clock, publicOrigin: TEST_ORIGIN, refreshMs: 100 });
    deps = { db: t.testDb.db.kysely, clock: t.clock, clients: admin, publicOrigin: TEST_ORIGIN };
  });
  afterAll(() => admin.close());

  const codeFor = (clientId: string, redirectUri = redirectOf(clientId)) => getCode(t.app, { clientId, redirectUri, scope: 'openid user:read' });
  const exchangeAs = async (clientId: string, secret: string, redirectUri = redirectOf(clientId)) =>
    tokenRequest(t.app, codeGrant({ code: await codeFor(clientId, redirectUri), clientId, redirectUri, verifier: VERIFIER }), basic(clientId, secret));
  const introspect = async (token: string) => (await t.app.inject({ method: 'POST', url: '/api/subuser/introspect', ...form({ token }, NET_ANSWER) })).json();
  const formAction = async () => /form-action ([^;]*)/.exec(String((await t.app.inject({ method: 'GET', url: '/api/health' })).headers['content-security-policy']))?.[1] ?? '';

  it('imports CLIENTS_FILE at the first start: every client of config/clients.json, enabled, with its secret', async () => {
    const rows = await t.testDb.db.kysely.selectFrom('oauth_clients').select(['client_id', 'enabled']).execute();
    expect(rows.map((r) => r.client_id).sort()).toEqual(FILE_CLIENTS.map((c) => c.client_id).sort());
    expect(rows.every((r) => Number(r.enabled) === 1)).toBe(true);
    expect(admin.version()).toBeGreaterThan(0);
    // The imported secret works at the introspection endpoint, a wrong one does not.
    const res = await t.app.inject({ method: 'POST', url: '/api/subuser/introspect', ...form({ token: 'x' }, NET_ANSWER) });
    expect(res.json()).toEqual({ active: false });
    expect((await t.app.inject({ method: 'POST', url: '/api/subuser/introspect', ...form({ token: 'x' }, basic('SIAP004', 'demo-secret-SIAP002')) })).statusCode).toBe(401);
  });

  it('does not import again on a later start, and says in one line that a changed CLIENTS_FILE is not read', async () => {
    const before = await t.testDb.db.kysely.selectFrom('oauth_clients').select('client_id').execute();
    const same: string[] = [];
    const sameNode = await startNode(t.testDb.db, t.testDb.url, {}, same);
    await sameNode.close();
    expect(same.join('')).not.toContain('CLIENTS_FILE');
    const log: string[] = [];
    // A file where one client is renamed and one is left out: the later start keeps the database's clients, all of them.
    const other = join(tmpdir(), `sso-clients-${dialect}-${Date.now()}.json`);
    const changed = FILE_CLIENTS.filter((c) => c.client_id !== 'SIAP008').map((c) => (c.client_id === 'SIAP002' ? { ...c, name: '別の名前' } : c));
    writeFileSync(other, JSON.stringify(changed));
    const node = await startNode(t.testDb.db, t.testDb.url, { CLIENTS_FILE: other }, log);
    try {
      const after = await t.testDb.db.kysely.selectFrom('oauth_clients').select('client_id').execute();
      expect(after.length).toBe(before.length);
      expect(log.filter((l) => l.includes('CLIENTS_FILE')).length).toBe(1);
      expect(log.join('')).toContain('is not read');
      const res = await node.inject({ method: 'POST', url: '/api/subuser/introspect', ...form({ token: 'x' }, NET_ANSWER) });
      expect(res.statusCode).toBe(200);
      expect((await postAuthorize(node, { clientId: 'SIAP008', redirectUri: redirectOf('SIAP008') })).statusCode).toBe(303);
    } finally {
      await node.close();
    }
  });

  it('registers a client: this node knows it at once, the app within its poll, and its secret works at the token endpoint', async () => {
    const id = 'NEWREG1';
    expect(await formAction()).not.toContain('https://partner.example');
    const before = admin.version();
    const { client, secret } = await registerClient(deps, partner(id, { redirect_uris: [redirectOf(id), 'https://partner.example/cb'] }));
    expect(client.client_id).toBe(id);
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(admin.get(id)?.name).toBe(`提携サービス ${id}`);
    expect(admin.version()).toBeGreaterThan(before);
    // Only the digest is stored (decision 0008).
    const stored = await t.testDb.db.kysely.selectFrom('oauth_client_secrets').select('secret_sha256').where('client_id', '=', id).execute();
    expect(stored).toHaveLength(1);
    expect(JSON.stringify(stored)).not.toContain(secret);
    await eventually(async () => expect((await exchangeAs(id, secret ?? '')).statusCode).toBe(200));
    expect((await exchangeAs(id, 'wrong-secret')).json().error).toBe('invalid_client');
    // The CSP's form-action follows the registry (http/security-headers.ts).
    expect(await formAction()).toContain('https://partner.example');
  });

  it('updates a client: the old redirect URI is refused, the new one works, the name and scopes change', async () => {
    const id = 'NEWUPD1';
    const { secret = '' } = await registerClient(deps, partner(id));
    // The app knows the client first, so that the 400 below is the update's.
    await eventually(async () => expect((await exchangeAs(id, secret)).statusCode).toBe(200));
    const moved = `${TEST_ORIGIN}/dev/partner/${id}/callback2`;
    const { client: updated } = await updateClient(deps, id, { redirect_uris: [moved], name: '新しい名前', scopes: ['openid', 'user:read', 'email'], post_logout_redirect_uris: [`${TEST_ORIGIN}/bye`], backchannel_logout_uri: 'https://partner.example/bc' });
    expect(updated).toMatchObject({ name: '新しい名前', scopes: ['openid', 'user:read', 'email'], redirect_uris: [moved], backchannel_logout_uri: 'https://partner.example/bc', type: 'confidential', audience: ['SIAP004'] });
    await eventually(async () => {
      const res = await postAuthorize(t.app, { clientId: id, redirectUri: redirectOf(id) });
      expect(res.statusCode).toBe(400);
      expect(res.body).toContain('URLをご確認ください。');
    });
    expect((await exchangeAs(id, secret, moved)).statusCode).toBe(200);
    expect((await updateClient(deps, id, { backchannel_logout_uri: null })).client.backchannel_logout_uri).toBeUndefined();
  });

  it('keeps the signing algorithms a client registered (decision 0034): RS256 unless it names ES256, nothing else; its ID tokens follow a change', async () => {
    const algOf = async (id: string, secret: string) => decodeProtectedHeader((await exchangeAs(id, secret)).json().id_token as string).alg;
    const { client, secret = '' } = await registerClient(deps, partner('NEWALG1'));
    expect(client.id_token_signed_response_alg).toBe('RS256');
    expect(client).not.toHaveProperty('userinfo_signed_response_alg');
    await eventually(async () => expect(await algOf('NEWALG1', secret)).toBe('RS256'));

    const { client: updated } = await updateClient(deps, 'NEWALG1', { id_token_signed_response_alg: 'ES256', userinfo_signed_response_alg: 'RS256' });
    expect(updated).toMatchObject({ id_token_signed_response_alg: 'ES256', userinfo_signed_response_alg: 'RS256', name: '提携サービス NEWALG1' });
    await eventually(async () => expect(await algOf('NEWALG1', secret)).toBe('ES256'));
    expect((await updateClient(deps, 'NEWALG1', { userinfo_signed_response_alg: null })).client).not.toHaveProperty('userinfo_signed_response_alg');
    const { client: es } = await registerClient(deps, partner('NEWALG2', { id_token_signed_response_alg: 'ES256', userinfo_signed_response_alg: 'ES256' }));
    expect(es).toMatchObject({ id_token_signed_response_alg: 'ES256', userinfo_signed_response_alg: 'ES256' });

    // A symmetric algorithm (the secret would sign), none, or a name of no algorithm: refused by field, nothing stored.
    for (const alg of ['HS256', 'none', 'RS512', 'rs256', '']) {
      expect(await refusedKeys(registerClient(deps, partner('NEWALG3', { id_token_signed_response_alg: alg })))).toEqual(['id_token_signed_response_alg']);
      expect(await refusedKeys(updateClient(deps, 'NEWALG1', { userinfo_signed_response_alg: alg }))).toEqual(['userinfo_signed_response_alg']);
    }
    expect(await refusedKeys(updateClient(deps, 'NEWALG1', { id_token_signed_response_alg: null }))).toEqual(['id_token_signed_response_alg']);
    const e = await registerClient(deps, partner('NEWALG3', { id_token_signed_response_alg: 'HS256' })).then(
      () => undefined,
      (err: unknown) => err as AppError,
    );
    expect(e?.validationErrors).toEqual([{ key: 'id_token_signed_response_alg', message: CLIENT_ADMIN_MESSAGES.alg }]);
    expect(admin.listAll().find((c) => c.client.client_id === 'NEWALG3')).toBeUndefined();
    expect(admin.get('NEWALG1')).toMatchObject({ id_token_signed_response_alg: 'ES256' });
  });

  it('rotates a secret: old and new both work, then only the new one, after retireOldSecrets or the overlap', async () => {
    const id = 'NEWROT1';
    const { secret: first = '' } = await registerClient(deps, partner(id));
    const { secret: second } = await rotateClientSecret(deps, id);
    expect(second).not.toBe(first);
    await eventually(async () => expect((await exchangeAs(id, second)).statusCode).toBe(200));
    expect((await exchangeAs(id, first)).statusCode).toBe(200);
    expect(await retireOldSecrets(deps, id)).toBe(1);
    await eventually(async () => expect((await exchangeAs(id, first)).json().error).toBe('invalid_client'));
    expect((await exchangeAs(id, second)).statusCode).toBe(200);
    // A short overlap ends by itself: no change is needed for the old secret to stop.
    const { secret: third } = await rotateClientSecret(deps, id, { overlapMs: 60_000 });
    await eventually(async () => expect((await exchangeAs(id, third)).statusCode).toBe(200));
    expect((await exchangeAs(id, second)).statusCode).toBe(200);
    t.clock.advance(60_001);
    expect((await exchangeAs(id, second)).json().error).toBe('invalid_client');
    expect((await exchangeAs(id, third)).statusCode).toBe(200);
  });

  it('disables a client: its tokens die at once, every flow refuses it; enabled again, only a new login works', async () => {
    const id = 'NEWDIS1';
    const { secret = '' } = await registerClient(deps, partner(id, { redirect_uris: [redirectOf(id), 'https://disabled.example/cb'] }));
    await eventually(async () => expect((await exchangeAs(id, secret)).statusCode).toBe(200));
    expect(await formAction()).toContain('https://disabled.example');
    const tokens = (await exchangeAs(id, secret)).json() as { access_token: string; refresh_token: string };
    const pendingCode = await codeFor(id);
    expect(await introspect(tokens.access_token)).toMatchObject({ active: true, client_id: id });

    const { changed, ended } = await setClientEnabled(deps, id, false);
    expect(changed).toBe(true);
    expect(ended.sessions).toBeGreaterThanOrEqual(2);
    expect(ended.codes).toBe(1);
    expect(admin.get(id)).toBeUndefined();
    expect(admin.listAll().find((e) => e.client.client_id === id)?.enabled).toBe(false);
    // The tokens are revoked in the database: inactive on every node at once (SPEC.md section 7).
    expect(await introspect(tokens.access_token)).toEqual({ active: false });
    await eventually(async () => {
      const res = await postAuthorize(t.app, { clientId: id, redirectUri: redirectOf(id) });
      expect(res.statusCode).toBe(400);
      expect(res.body).toContain('URLをご確認ください。');
    });
    const refresh = () => tokenRequest(t.app, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: id }, basic(id, secret));
    // A disabled client cannot authenticate (RFC 6749 section 5.2); nor introspect with its secret.
    expect((await refresh()).json().error).toBe('invalid_client');
    expect((await t.app.inject({ method: 'POST', url: '/api/subuser/introspect', ...form({ token: tokens.access_token }, basic(id, secret)) })).statusCode).toBe(401);
    // The authorize endpoint reads the flag in the database; the form-action list follows the node's poll.
    await eventually(async () => expect(await formAction()).not.toContain('https://disabled.example'));
    expect((await setClientEnabled(deps, id, false)).changed).toBe(false);

    expect((await setClientEnabled(deps, id, true)).changed).toBe(true);
    await eventually(async () => expect((await refresh()).json().error).toBe('invalid_grant'));
    expect(await introspect(tokens.access_token)).toEqual({ active: false });
    const stale = await tokenRequest(t.app, codeGrant({ code: pendingCode, clientId: id, redirectUri: redirectOf(id), verifier: VERIFIER }), basic(id, secret));
    expect(stale.json().error).toBe('invalid_grant');
    expect((await exchangeAs(id, secret)).statusCode).toBe(200);
  });

  it('a node polls the version until it closes: a closed store keeps its snapshot', async () => {
    const open = async () => openClientStore({ db: t.testDb.db.kysely, clock: t.clock, publicOrigin: TEST_ORIGIN, refreshMs: 100 });
    const polling = await open();
    const closed = await open();
    const log = { warn: (_obj: object, msg: string) => expect.fail(msg) };
    polling.startPolling(log);
    closed.startPolling(log);
    await closed.close();
    try {
      const before = closed.version();
      await registerClient(deps, partner('NEWPOLL1'));
      await eventually(() => expect(polling.get('NEWPOLL1')).toBeDefined());
      expect(polling.version()).toBeGreaterThan(before);
      expect(closed.get('NEWPOLL1')).toBeUndefined();
      expect(closed.version()).toBe(before);
    } finally {
      await polling.close();
    }
  });

  it('registers a private_key_jwt client without a secret, and changes its keys: the old key is refused, the new one works (decision 0038)', async () => {
    const id = 'NEWPKJ1';
    const [oldKey, newKey] = [await generateKeyPair('ES256'), await generateKeyPair('ES256')];
    const jwksOf = async (k: SigningKey) => ({ keys: [{ ...(await exportJWK(k)), kid: 'k', alg: 'ES256' }] });
    const { secret } = await registerClient(deps, partner(id, { token_endpoint_auth_method: 'private_key_jwt', jwks: await jwksOf(oldKey.publicKey) }));
    expect(secret).toBeUndefined();
    expect(await t.testDb.db.kysely.selectFrom('oauth_client_secrets').select('id').where('client_id', '=', id).execute()).toEqual([]);
    expect(await refusedKeys(rotateClientSecret(deps, id))).toEqual(['client_id']);
    const revokeWith = async (k: SigningKey) => {
      const now = Math.floor(t.clock.now() / 1000);
      const jwt = await new SignJWT({ iss: id, sub: id, aud: TEST_ORIGIN, jti: randomUUID(), exp: now + 60 }).setProtectedHeader({ alg: 'ES256' }).sign(k);
      return (await t.app.inject({ method: 'POST', url: '/api/auth/revoke', ...form({ token: 'x', client_assertion_type: JWT_BEARER_ASSERTION, client_assertion: jwt }) })).statusCode;
    };
    await eventually(async () => expect(await revokeWith(oldKey.privateKey)).toBe(200));
    await updateClient(deps, id, { jwks: await jwksOf(newKey.publicKey) });
    await eventually(async () => expect(await revokeWith(newKey.privateKey)).toBe(200));
    expect(await revokeWith(oldKey.privateKey)).toBe(401);
    // The method and its keys are checked as a whole.
    const pkjwt = { token_endpoint_auth_method: 'private_key_jwt' };
    expect(await refusedKeys(registerClient(deps, partner('BADPKJ1', pkjwt)))).toEqual(['jwks_uri']);
    expect(await refusedKeys(registerClient(deps, partner('BADPKJ2', { ...pkjwt, jwks: await jwksOf(newKey.publicKey), jwks_uri: 'https://p.example/jwks' })))).toEqual(['jwks']);
    expect(await refusedKeys(registerClient(deps, partner('BADPKJ3', { ...pkjwt, jwks_uri: 'http://partner.example/jwks' })))).toEqual(['jwks_uri']);
    expect(await refusedKeys(registerClient(deps, partner('BADPKJ4', { ...pkjwt, jwks: { keys: [await exportJWK((await generateKeyPair('ES256', { extractable: true })).privateKey)] } })))).toEqual(['jwks']);
    expect(await refusedKeys(registerClient(deps, partner('BADPKJ5', { token_endpoint_auth_method: 'none' })))).toEqual(['token_endpoint_auth_method']);
    expect(await refusedKeys(registerClient(deps, partner('BADPKJ6', { jwks_uri: 'https://p.example/jwks' })))).toEqual(['jwks_uri']);
    expect(await refusedKeys(updateClient(deps, id, { jwks: null }))).toEqual(['jwks_uri']);
  });

  it('refuses what the registry cannot hold, naming the field (901)', async () => {
    for (const uri of ['javascript:alert(1)', 'https://partner.example/cb#frag', 'http://evil.example/cb', '/relative/cb', 'data:text/html,x']) {
      expect(await refusedKeys(registerClient(deps, partner('BADURI1', { redirect_uris: [uri] }))), uri).toEqual(['redirect_uris']);
    }
    expect(await refusedKeys(registerClient(deps, partner('BADURI2', { post_logout_redirect_uris: ['ftp://x.example/'] })))).toEqual(['post_logout_redirect_uris']);
    expect(await refusedKeys(registerClient(deps, partner('BADSCOPE', { scopes: ['openid', 'admin:all'] })))).toEqual(['scopes']);
    expect(await refusedKeys(registerClient(deps, partner('BADTERM', { terms: ['NoSuchTerms'] })))).toEqual(['terms']);
    expect(await refusedKeys(registerClient(deps, partner('SIAP002')))).toEqual(['client_id']);
    expect(await refusedKeys(registerClient(deps, partner('BADAUD1', { audience: ['SIAP009'] })))).toEqual(['audience']);
    expect(await refusedKeys(registerClient(deps, partner('BADAUD2', { audience: ['NOSUCH'] })))).toEqual(['audience']);
    expect(await refusedKeys(registerClient(deps, { ...partner('BADSECRET'), secret_sha256: 'a'.repeat(64) }))).toEqual(['secret_sha256']);
    expect(await refusedKeys(registerClient(deps, partner('bad id!')))).toEqual(['client_id']);
    for (const scheme of ['javascript', 'data', 'https']) {
      expect(await refusedKeys(registerClient(deps, partner('BADSCHEME', { custom_scheme: scheme, redirect_uris: [`${scheme}:alert(1)`] }))), scheme).toContain('custom_scheme');
    }
    expect(await refusedKeys(updateClient(deps, 'NOSUCH', { name: 'x' }))).toEqual(['client_id']);
    expect(await refusedKeys(updateClient(deps, 'SIAP002', { redirect_uris: ['javascript:alert(1)'] }))).toEqual(['redirect_uris']);
    expect(await refusedKeys(updateClient(deps, 'SIAP002', { type: 'public' }))).toEqual(['type']);
    expect(await refusedKeys(rotateClientSecret(deps, 'SIAP009'))).toEqual(['client_id']);
    expect(await refusedKeys(rotateClientSecret(deps, 'SIAP002', { overlapMs: -1 }))).toEqual(['overlap_ms']);
    expect(await refusedKeys(setClientEnabled(deps, 'NOSUCH', false))).toEqual(['client_id']);
    // Nothing of it was written.
    const ids = (await t.testDb.db.kysely.selectFrom('oauth_clients').select('client_id').execute()).map((r) => r.client_id);
    expect(ids.filter((i) => i.startsWith('BAD'))).toEqual([]);
    expect(admin.get('SIAP002')?.redirect_uris).toEqual([redirectOf('SIAP002')]);
  });

  it("takes a public client's web origins, exact origins only, and the running app answers them within CLIENTS_REFRESH_MS (decision 0035)", async () => {
    const app = (clientId: string, extra: Record<string, unknown> = {}) => ({ ...partner(clientId), type: 'public', audience: [], ...extra });
    const allowedOrigin = async (origin: string) =>
      (await t.app.inject({ method: 'OPTIONS', url: '/api/auth/token', headers: { origin, 'access-control-request-method': 'POST' } })).headers['access-control-allow-origin'];
    for (const origin of ['https://app.example/', 'https://app.example/path', 'https://*.example', 'https://APP.example', 'https://app.example:443', 'http://app.example', 'app.example', 'https://app.example?x', 'https://user@app.example', '*', 'null', '']) {
      expect(await refusedKeys(registerClient(deps, app('BADORIGIN', { web_origins: [origin] }))), origin).toEqual(['web_origins']);
    }
    // A confidential client keeps a secret no page could keep: no web origins, at registration or later.
    expect(await refusedKeys(registerClient(deps, partner('BADORIGIN', { web_origins: ['https://app.example'] })))).toEqual(['web_origins']);
    expect(await refusedKeys(updateClient(deps, 'SIAP002', { web_origins: ['https://app.example'] }))).toEqual(['web_origins']);
    expect(await refusedKeys(updateClient(deps, 'SIAP009', { web_origins: ['https://app.example/'] }))).toEqual(['web_origins']);
    // CLIENTS_FILE by the same rules.
    expect(() => parseClientsFile([{ ...partner('FILE1'), secret_sha256: 'a'.repeat(64), web_origins: ['https://app.example'] }])).toThrow(/web_origins/);
    expect(() => parseClientsFile([{ ...app('FILE2'), web_origins: ['https://app.example/'] }])).toThrow(/web_origins/);

    const registered = await registerClient(deps, app('WEBAPP1', { web_origins: ['https://app.example', 'http://localhost:5173', 'https://app.example:8443'] }));
    expect(registered.client.web_origins).toEqual(['https://app.example', 'http://localhost:5173', 'https://app.example:8443']);
    await eventually(async () => expect(await allowedOrigin('https://app.example:8443')).toBe('https://app.example:8443'));
    await updateClient(deps, 'WEBAPP1', { web_origins: ['https://other.example'] });
    await eventually(async () => expect(await allowedOrigin('https://app.example:8443')).toBeUndefined());
    expect(await allowedOrigin('https://other.example')).toBe('https://other.example');
  });

  describe('changes at once to one client: each reads the definition the other committed (decision 0040)', () => {
    const liveSecrets = async (clientId: string) =>
      (
        await t.testDb.db.kysely
          .selectFrom('oauth_client_secrets')
          .select('id')
          .where('client_id', '=', clientId)
          .where((eb) => eb.or([eb('retire_at', 'is', null), eb('retire_at', '>', t.clock.now())]))
          .execute()
      ).length;
    const jwks = async () => ({ keys: [{ ...(await exportJWK((await generateKeyPair('ES256')).publicKey)), kid: 'k', alg: 'ES256' }] });

    it('a rotation and a switch to private_key_jwt leave no secret that works, in either order', async () => {
      for (const [round, switchFirst] of [false, true, false, true].entries()) {
        const id = `RACEPKJ${round}`;
        await registerClient(deps, partner(id));
        const toKeys = async () => updateClient(deps, id, { token_endpoint_auth_method: 'private_key_jwt', jwks: await jwks() });
        const rotate = () => rotateClientSecret(deps, id);
        // The rotation may come second and be refused: a private_key_jwt client has no secret to rotate.
        await Promise.allSettled(switchFirst ? [toKeys(), rotate()] : [rotate(), toKeys()]);
        expect(admin.get(id)?.token_endpoint_auth_method, `round ${round}`).toBe('private_key_jwt');
        expect(await liveSecrets(id), `round ${round}`).toBe(0);
      }
    });

    it('two switches from private_key_jwt to a secret method give the client one secret, not two', async () => {
      for (const round of [0, 1, 2]) {
        const id = `RACESEC${round}`;
        await registerClient(deps, partner(id, { token_endpoint_auth_method: 'private_key_jwt', jwks: await jwks() }));
        const toSecret = () => updateClient(deps, id, { token_endpoint_auth_method: 'client_secret_basic', jwks: null });
        const answers = await Promise.all([toSecret(), toSecret()]);
        expect(answers.filter((a) => a.secret !== undefined), `round ${round}`).toHaveLength(1);
        expect(await liveSecrets(id), `round ${round}`).toBe(1);
      }
    });
  });
});

describe('two nodes on one PostgreSQL database', () => {
  const t = withTestApp('postgres', REFRESH);
  let other: { db: Db; app: FastifyInstance };
  let admin: ClientStore;
  beforeAll(async () => {
    // The second node has a pool of its own, as another process would.
    const db = openDatabase(t.testDb.url);
    other = { db, app: await startNode(db, t.testDb.url) };
    admin = await openClientStore({ db: t.testDb.db.kysely, clock: t.clock, publicOrigin: TEST_ORIGIN, refreshMs: 100 });
  });
  afterAll(async () => {
    await admin.close();
    await other.app.close();
    await other.db.close();
  });

  it('a client disabled on one node is refused on the other within seconds, and enabled again there too', async () => {
    const deps = { db: t.testDb.db.kysely, clock: t.clock, clients: admin, publicOrigin: TEST_ORIGIN };
    const id = 'TWONODE1';
    const { secret = '' } = await registerClient(deps, partner(id));
    const introspectAs = (app: FastifyInstance) => app.inject({ method: 'POST', url: '/api/subuser/introspect', ...form({ token: 'x' }, basic(id, secret)) });
    await eventually(async () => expect((await introspectAs(other.app)).statusCode).toBe(200));
    await eventually(async () => expect((await introspectAs(t.app)).statusCode).toBe(200));
    await setClientEnabled(deps, id, false);
    await eventually(async () => expect((await introspectAs(other.app)).json().error).toBe('invalid_client'));
    await eventually(async () => expect((await postAuthorize(other.app, { clientId: id, redirectUri: redirectOf(id) })).statusCode).toBe(400));
    await setClientEnabled(deps, id, true);
    await eventually(async () => expect((await introspectAs(other.app)).statusCode).toBe(200));
  });
});

// Several nodes share a PostgreSQL database (docs/operations.md "Running many nodes"); a SQLite file has one process.
describe('the first start of several nodes at once on one PostgreSQL database', () => {
  let t: TestDb;
  beforeAll(async () => {
    t = await createMigratedTestDb('postgres');
  });
  afterAll(async () => t.drop());

  it('imports each client of CLIENTS_FILE once, and a later import finds the registry full', async () => {
    const entries = loadClientsFile(`${REPO_ROOT}config/clients.json`, TEST_ORIGIN);
    // Each node has its own pool: both may read "no client" before either has written one.
    const nodes = [openDatabase(t.url), openDatabase(t.url)];
    try {
      const imported = await Promise.all(nodes.map((n) => importClientsIfEmpty(n.kysely, () => entries, Date.now())));
      expect(imported.reduce((a, b) => a + b, 0)).toBe(entries.length);
    } finally {
      await Promise.all(nodes.map((n) => n.close()));
    }
    const rows = await t.db.kysely.selectFrom('oauth_clients').select('client_id').execute();
    expect(rows.map((r) => r.client_id).sort()).toEqual(entries.map((e) => e.definition.client_id).sort());
    const secrets = await t.db.kysely.selectFrom('oauth_client_secrets').select('client_id').execute();
    expect(secrets.map((s) => s.client_id).sort()).toEqual(entries.filter((e) => e.secrets.length > 0).map((e) => e.definition.client_id).sort());
    expect(await importClientsIfEmpty(t.db.kysely, () => { throw new Error('the file is not read once the registry has clients'); }, Date.now())).toBe(0);
  });
});

describe.each(DIALECTS)('a production start on a registry with the demo secrets (%s)', (dialect) => {
  it('refuses to start, naming the clients, and starts once their secrets are rotated and retired', async () => {
    const t = await createMigratedTestDb(dialect);
    try {
      // A registry first filled from the demo file (a staging database promoted, say): the production file is no longer read.
      await importClientsIfEmpty(t.db.kysely, () => loadClientsFile(`${REPO_ROOT}config/clients.json`, TEST_ORIGIN), Date.now());
      const config = loadConfig({ ...PRODUCTION_ENV, DATABASE_URL: t.url, PUBLIC_ORIGIN: TEST_ORIGIN, WEB_DIST: '/nonexistent' });
      await expect(buildApp(config, { db: t.db, logger: false })).rejects.toThrow(
        'Invalid configuration: the client registry in the database carries the published demo secret of SIAP002, SIAP004;',
      );
      const store = await openClientStore({ db: t.db.kysely, clock: new ManualClock(Date.now()), publicOrigin: TEST_ORIGIN, refreshMs: 100 });
      const deps = { db: t.db.kysely, clock: new ManualClock(Date.now()), clients: store, publicOrigin: TEST_ORIGIN };
      for (const id of ['SIAP002', 'SIAP004']) {
        await rotateClientSecret(deps, id);
        await retireOldSecrets(deps, id);
      }
      const app = await buildApp(config, { db: t.db, logger: false });
      await app.close();
    } finally {
      await t.drop();
    }
  });
});
