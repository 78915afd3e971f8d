import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import type { FastifyInstance } from 'fastify';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import * as client from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_CLIENT_MESSAGES, adminClientsResponseSchema, clientRegisterResponseSchema, clientResponseSchema, SIGNING_ALG_MESSAGE } from '@sso/contracts/admin-clients';
import { OPERATOR_MESSAGES } from '@sso/contracts/operators';
import { buildApp } from '../../app.ts';
import { loadConfig, REPO_ROOT } from '../../config.ts';
import { openDatabase, type Db } from '../../db/database.ts';
import { ManualClock } from '../../lib/clock.ts';
import { eventually } from '../../test-support/eventually.ts';
import { codeGrant } from '../../test-support/oauth-client.ts';
import { signIn as rpSignIn } from '../../test-support/oidc-kit.ts';
import { adminCall, enrol, enrolledOperator, enrolmentToken, invite, signedInAdmin, signIn, stepUp } from '../../test-support/operator-kit.ts';
import { SoftAuthenticator } from '../../test-support/soft-authenticator.ts';
import { basic, form, getCode, loginTokens, NET_ANSWER, postAuthorize, TEST_ORIGIN, tokenRequest, VERIFIER, withTestApp, type TestApp } from '../../test-support/test-app.ts';
import { DIALECTS } from '../../test-support/test-db.ts';
import { withListeningApp } from '../../test-support/vitest.ts';
import { CLIENT_ADMIN_MESSAGES } from '../client-admin/client-admin.ts';
import { JWT_BEARER_ASSERTION } from '../oauth/client-assertion.ts';
import { bootstrapAdmin } from './enrolment-service.ts';
import { OPERATOR_LIMITS } from './limits.ts';

/*
 * The administrator's operator API over partner clients and operators (decisions 0031, 0032): every
 * endpoint by role and with a member's token; a client registered, rotated and disabled through the
 * API reaching the flows without a restart; each change audited with its reason.
 */

const REFRESH = { CLIENTS_REFRESH_MS: '100' };
const REASON = { reason: '提携先からの申請', ticket: 'INC-1234' };

const redirectOf = (origin: string, clientId: string) => `${origin}/dev/partner/${clientId}/callback`;
/** A partner's client as the console registers it: confidential, Net Answer may introspect its tokens. */
const partner = (origin: string, clientId: string, extra: Record<string, unknown> = {}) => ({
  client_id: clientId,
  name: `提携サービス ${clientId}`,
  type: 'confidential',
  redirect_uris: [redirectOf(origin, clientId)],
  scopes: ['openid', 'user:read'],
  audience: ['SIAP004'],
  ...REASON,
  ...extra,
});

/** Every endpoint of this API with a valid body: what each role and a member's token are tried on. */
const ENDPOINTS: [string, Record<string, unknown>][] = [
  ['/api/admin/clients', {}],
  ['/api/admin/clients/register', partner(TEST_ORIGIN, 'ROLECHK')],
  ['/api/admin/clients/update', { client_id: 'SIAP008', name: 'x', ...REASON }],
  ['/api/admin/clients/enable', { client_id: 'SIAP008', ...REASON }],
  ['/api/admin/clients/disable', { client_id: 'SIAP008', ...REASON }],
  ['/api/admin/clients/secret/rotate', { client_id: 'SIAP002', ...REASON }],
  ['/api/admin/clients/secret/retire', { client_id: 'SIAP002', ...REASON }],
  ['/api/admin/operators', {}],
  ['/api/admin/operators/disable', { operator_id: 'nobody', ...REASON }],
  ['/api/admin/operators/enable', { operator_id: 'nobody', ...REASON }],
];

const auditRows = (t: TestApp, action: string) => t.testDb.db.kysely.selectFrom('audit_log').selectAll().where('action', '=', action).execute();

describe.each(DIALECTS)('the administrator API: clients and operators (%s)', (dialect) => {
  const t = withTestApp(dialect, REFRESH);
  let admin: Awaited<ReturnType<typeof signedInAdmin>>;
  let support: { token: string };
  let security: { token: string };
  let adminId: string;
  beforeAll(async () => {
    admin = await signedInAdmin(t, 'root@card.example.jp');
    adminId = (await adminCall(t, '/api/admin/me', admin.token)).json().operator.id;
    support = await enrolledOperator(t, enrolmentToken((await invite(t, admin.token, { email: 'support@card.example.jp', role: 'support' })).json().enrolment_url));
    security = await enrolledOperator(t, enrolmentToken((await invite(t, admin.token, { email: 'security@card.example.jp', role: 'security' })).json().enrolment_url));
  });
  /** A fresh passkey proof for the administrator before each sensitive call. */
  const fresh = async () => expect((await stepUp(t, admin.token, admin.authenticator)).json()).toMatchObject({ result_code: 0 });
  const call = async (url: string, body: Record<string, unknown> = {}) => {
    await fresh();
    return adminCall(t, url, admin.token, body);
  };
  const exchangeAs = async (clientId: string, secret: string) => {
    const redirectUri = redirectOf(TEST_ORIGIN, clientId);
    const code = await getCode(t.app, { clientId, redirectUri, scope: 'openid user:read' });
    return tokenRequest(t.app, codeGrant({ code, clientId, redirectUri, verifier: VERIFIER }), basic(clientId, secret));
  };

  it('refuses every endpoint to support and security (403 insufficient_scope), to a member token (403) and without a token (401), changing nothing', async () => {
    const member = (await loginTokens(t.app)).access_token;
    const before = await t.testDb.db.kysely.selectFrom('audit_log').select('id').execute();
    for (const [url, body] of ENDPOINTS) {
      for (const token of [support.token, security.token, member]) {
        const res = await adminCall(t, url, token, body);
        expect(res.statusCode, `${url} ${res.body}`).toBe(403);
        expect(res.json()).toMatchObject({ result_code: 300 });
        expect(res.headers['www-authenticate']).toContain('error="insufficient_scope"');
      }
      const none = await adminCall(t, url, undefined, body);
      expect(none.statusCode, url).toBe(401);
      expect((await adminCall(t, url, 'op_garbage', body)).statusCode, url).toBe(401);
    }
    expect(await t.testDb.db.kysely.selectFrom('oauth_clients').select('client_id').where('client_id', '=', 'ROLECHK').executeTakeFirst()).toBeUndefined();
    expect(await t.testDb.db.kysely.selectFrom('audit_log').select('id').execute()).toHaveLength(before.length);
  });

  it('lists every client with its flag and its secrets\' times, never a secret or its digest; lists the operators', async () => {
    const res = await adminCall(t, '/api/admin/clients', admin.token);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const { clients } = adminClientsResponseSchema.parse(res.json());
    const na = clients.find((c) => c.client_id === 'SIAP004');
    expect(na).toMatchObject({ type: 'confidential', enabled: true, secrets: [{ created_at: expect.any(Number), retire_at: null }] });
    // The signing algorithms (decision 0034): the partners' default, the member's own apps' ES256, userinfo as JSON.
    expect(na).toMatchObject({ id_token_signed_response_alg: 'RS256', userinfo_signed_response_alg: null });
    expect(clients.find((c) => c.client_id === 'SIAP009')).toMatchObject({ id_token_signed_response_alg: 'ES256', userinfo_signed_response_alg: null });
    const digests = await t.testDb.db.kysely.selectFrom('oauth_client_secrets').select('secret_sha256').execute();
    for (const d of digests) expect(res.body).not.toContain(d.secret_sha256);
    expect(res.body).not.toContain('demo-secret');
    const operators = await adminCall(t, '/api/admin/operators', admin.token);
    expect(operators.json().operators.map((o: { email: string; role: string }) => `${o.email} ${o.role}`)).toEqual(
      expect.arrayContaining(['root@card.example.jp admin', 'support@card.example.jp support', 'security@card.example.jp security']),
    );
  });

  it('registers a client: its secret once, audited with the reason; it logs in at once; a reason is required, a fresh proof too', async () => {
    const id = `APIREG-${dialect}`;
    const noReason = await call('/api/admin/clients/register', { ...partner(TEST_ORIGIN, id), reason: '  ' });
    expect(noReason.json()).toMatchObject({ result_code: 901 });
    expect(JSON.stringify(noReason.json())).toContain('reason');
    const badUri = await call('/api/admin/clients/register', partner(TEST_ORIGIN, id, { redirect_uris: ['javascript:alert(1)'] }));
    expect(badUri.json()).toMatchObject({ result_code: 901, validation_errors: [{ key: 'redirect_uris' }] });
    t.clock.advance(OPERATOR_LIMITS.freshProofMs + 1);
    const stale = await adminCall(t, '/api/admin/clients/register', admin.token, partner(TEST_ORIGIN, id));
    expect(stale.statusCode).toBe(401);
    expect(stale.json()).toMatchObject({ result_message: OPERATOR_MESSAGES.freshProofNeeded });
    expect(stale.headers['www-authenticate']).toContain('insufficient_user_authentication');

    const res = await call('/api/admin/clients/register', partner(TEST_ORIGIN, id));
    expect(res.statusCode, res.body).toBe(200);
    const body = clientRegisterResponseSchema.parse(res.json());
    expect(body.client).toMatchObject({ client_id: id, enabled: true, type: 'confidential', secrets: [{ retire_at: null }] });
    expect(body.client_secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // The node reloaded at once: no wait, no restart.
    expect((await exchangeAs(id, body.client_secret!)).statusCode).toBe(200);
    // Never again: the listing has no secret.
    expect((await adminCall(t, '/api/admin/clients', admin.token)).body).not.toContain(body.client_secret);
    const [row] = await auditRows(t, 'client.create').then((rows) => rows.filter((r) => r.client_id === id));
    expect(row).toMatchObject({ operator_id: adminId, operator_role: 'admin', reason: REASON.reason, ticket: REASON.ticket });
    expect(JSON.stringify(row)).not.toContain(body.client_secret);
    // The same client_id again: 901 on client_id.
    expect((await call('/api/admin/clients/register', partner(TEST_ORIGIN, id))).json()).toMatchObject({ result_code: 901, validation_errors: [{ key: 'client_id' }] });
  });

  it("takes a public client's web origins and answers its page's preflight at once; refuses them for a confidential client or in a wrong form (decision 0035)", async () => {
    const id = `APIWEB-${dialect}`;
    const preflightOrigin = async (origin: string) =>
      (await t.app.inject({ method: 'OPTIONS', url: '/api/auth/token', headers: { origin, 'access-control-request-method': 'POST' } })).headers['access-control-allow-origin'];
    const confidential = await call('/api/admin/clients/register', partner(TEST_ORIGIN, id, { web_origins: ['https://app.example'] }));
    expect(confidential.json()).toMatchObject({ result_code: 901, validation_errors: [{ key: 'web_origins' }] });
    const browserApp = partner(TEST_ORIGIN, id, { type: 'public', audience: [], web_origins: ['https://app.example'] });
    const wrong = await call('/api/admin/clients/register', { ...browserApp, web_origins: ['https://app.example/'] });
    expect(wrong.json()).toMatchObject({ result_code: 901, validation_errors: [{ key: 'web_origins' }] });
    expect(await preflightOrigin('https://app.example')).toBeUndefined();

    const res = await call('/api/admin/clients/register', browserApp);
    expect(res.statusCode, res.body).toBe(200);
    expect(clientRegisterResponseSchema.parse(res.json()).client.web_origins).toEqual(['https://app.example']);
    expect(await preflightOrigin('https://app.example')).toBe('https://app.example');
    const moved = await call('/api/admin/clients/update', { client_id: id, web_origins: ['https://app2.example:8443'], ...REASON });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(await preflightOrigin('https://app.example')).toBeUndefined();
    expect(await preflightOrigin('https://app2.example:8443')).toBe('https://app2.example:8443');
    const [row] = await auditRows(t, 'client.update').then((rows) => rows.filter((r) => r.client_id === id));
    expect(JSON.stringify(row)).toContain('web_origins');
  });

  it('takes DPoP-bound tokens and pushed requests only at registration and by update, in effect at once, audited (decisions 0036, 0037)', async () => {
    const id = `APIFAPI-${dialect}`;
    const registered = clientRegisterResponseSchema.parse((await call('/api/admin/clients/register', partner(TEST_ORIGIN, id))).json());
    expect(registered.client).toMatchObject({ dpop_bound_access_tokens: false, require_pushed_authorization_requests: false });
    const secret = registered.client_secret!;
    expect((await exchangeAs(id, secret)).statusCode).toBe(200);

    const bound = await call('/api/admin/clients/update', { client_id: id, dpop_bound_access_tokens: true, ...REASON });
    expect(bound.statusCode, bound.body).toBe(200);
    expect(clientResponseSchema.parse(bound.json()).client).toMatchObject({ dpop_bound_access_tokens: true, require_pushed_authorization_requests: false });
    // A token request without a DPoP proof is refused at once (RFC 9449 section 5.2): no wait, no restart.
    const unproven = await exchangeAs(id, secret);
    expect(unproven.statusCode).toBe(400);
    expect(unproven.json()).toMatchObject({ error: 'invalid_dpop_proof' });

    expect((await postAuthorize(t.app, { clientId: id, redirectUri: redirectOf(TEST_ORIGIN, id) })).statusCode).toBe(303);
    const pushedOnly = await call('/api/admin/clients/update', { client_id: id, require_pushed_authorization_requests: true, ...REASON });
    expect(pushedOnly.json()).toMatchObject({ result_code: 0, client: { dpop_bound_access_tokens: true, require_pushed_authorization_requests: true } });
    // A plain authorization request: the 400 page, never a redirect (RFC 9126 section 5).
    const plain = await postAuthorize(t.app, { clientId: id, redirectUri: redirectOf(TEST_ORIGIN, id) });
    expect(plain.statusCode).toBe(400);
    expect(plain.headers.location).toBeUndefined();
    const fields = (await auditRows(t, 'client.update')).filter((r) => r.client_id === id).map((r) => String(r.detail));
    expect(fields.join()).toContain('dpop_bound_access_tokens');
    expect(fields.join()).toContain('require_pushed_authorization_requests');

    // Both off again: plain requests and tokens without a proof as before.
    const off = await call('/api/admin/clients/update', { client_id: id, dpop_bound_access_tokens: false, require_pushed_authorization_requests: false, ...REASON });
    expect(off.json()).toMatchObject({ result_code: 0, client: { dpop_bound_access_tokens: false, require_pushed_authorization_requests: false } });
    expect((await exchangeAs(id, secret)).statusCode).toBe(200);
    // Set at registration; a flag that is not a boolean is refused, naming it.
    const fapi = await call('/api/admin/clients/register', partner(TEST_ORIGIN, `${id}-2`, { dpop_bound_access_tokens: true, require_pushed_authorization_requests: true }));
    expect(fapi.json()).toMatchObject({ result_code: 0, client: { dpop_bound_access_tokens: true, require_pushed_authorization_requests: true } });
    const notBoolean = await call('/api/admin/clients/update', { client_id: id, dpop_bound_access_tokens: 'yes', ...REASON });
    expect(notBoolean.json()).toMatchObject({ result_code: 901, validation_errors: [{ key: 'dpop_bound_access_tokens' }] });
  });

  it("changes a client's authentication method, checked as at registration: a secret retires with private_key_jwt, a new one is answered once without it (decision 0038)", async () => {
    const id = `APIAUTH-${dialect}`;
    const first = (await call('/api/admin/clients/register', partner(TEST_ORIGIN, id))).json().client_secret as string;
    const key = await generateKeyPair('ES256', { extractable: true });
    const jwks = { keys: [{ ...(await exportJWK(key.publicKey)), kid: 'k1', alg: 'ES256' }] };
    const update = (changes: Record<string, unknown>) => call('/api/admin/clients/update', { client_id: id, ...changes, ...REASON });
    const refused = async (changes: Record<string, unknown>) => (await update(changes)).json();

    // The registration's checks (clients.ts authMethodProblems), in Japanese, naming the field.
    expect(await refused({ token_endpoint_auth_method: 'private_key_jwt' })).toMatchObject({ result_code: 901, validation_errors: [{ key: 'jwks_uri', message: CLIENT_ADMIN_MESSAGES.keys }] });
    expect(await refused({ token_endpoint_auth_method: 'none' })).toMatchObject({ result_code: 901, validation_errors: [{ key: 'token_endpoint_auth_method', message: CLIENT_ADMIN_MESSAGES.authMethod }] });
    expect(await refused({ token_endpoint_auth_method: 'client_secret_jwt' })).toMatchObject({ result_code: 901, validation_errors: [{ key: 'token_endpoint_auth_method', message: CLIENT_ADMIN_MESSAGES.authMethod }] });
    expect(await refused({ token_endpoint_auth_method: 'private_key_jwt', jwks: { keys: [await exportJWK(key.privateKey)] } })).toMatchObject({ result_code: 901, validation_errors: [{ key: 'jwks' }] });
    expect(await refused({ token_endpoint_auth_method: 'private_key_jwt', jwks: { keys: 'x' } })).toMatchObject({ result_code: 901, validation_errors: [{ key: 'jwks' }] });
    expect(await refused({ token_endpoint_auth_method: 'private_key_jwt', jwks_uri: 'http://partner.example/jwks' })).toMatchObject({ result_code: 901, validation_errors: [{ key: 'jwks_uri', message: CLIENT_ADMIN_MESSAGES.jwksUri }] });
    // A public client authenticates with nothing, and only so.
    expect(
      (await call('/api/admin/clients/register', partner(TEST_ORIGIN, `${id}-pub`, { type: 'public', audience: [], token_endpoint_auth_method: 'client_secret_basic' }))).json(),
    ).toMatchObject({ result_code: 901, validation_errors: [{ key: 'token_endpoint_auth_method' }] });
    expect((await call('/api/admin/clients/update', { client_id: 'SIAP009', token_endpoint_auth_method: 'client_secret_post', ...REASON })).json()).toMatchObject({
      result_code: 901,
      validation_errors: [{ key: 'token_endpoint_auth_method' }],
    });
    // Nothing was changed by the refusals.
    expect((await exchangeAs(id, first)).statusCode).toBe(200);

    const keyed = await update({ token_endpoint_auth_method: 'private_key_jwt', jwks });
    expect(keyed.statusCode, keyed.body).toBe(200);
    const view = clientResponseSchema.parse(keyed.json());
    expect(view.client).toMatchObject({ token_endpoint_auth_method: 'private_key_jwt', jwks: { keys: [{ kid: 'k1' }] }, jwks_uri: null });
    expect(keyed.json().client_secret).toBeUndefined();
    // Its secret ends now, in the same change: no secret of a private_key_jwt client works, nor comes back with a later change.
    expect(view.client.secrets.every((s) => s.retire_at !== null && s.retire_at <= t.clock.now())).toBe(true);
    expect((await exchangeAs(id, first)).json().error).toBe('invalid_client');
    const now = Math.floor(t.clock.now() / 1000);
    const assertion = await new SignJWT({ iss: id, sub: id, aud: TEST_ORIGIN, jti: randomUUID(), exp: now + 60 }).setProtectedHeader({ alg: 'ES256', kid: 'k1' }).sign(key.privateKey);
    const revoked = await t.app.inject({ method: 'POST', url: '/api/auth/revoke', ...form({ token: 'x', client_assertion_type: JWT_BEARER_ASSERTION, client_assertion: assertion }) });
    expect(revoked.statusCode, revoked.body).toBe(200);

    // Back to a secret: the keys must go in the same change; the new secret is answered once.
    expect(await refused({ token_endpoint_auth_method: 'client_secret_basic' })).toMatchObject({ result_code: 901, validation_errors: [{ key: 'jwks', message: CLIENT_ADMIN_MESSAGES.keys }] });
    const secretAgain = await update({ token_endpoint_auth_method: 'client_secret_basic', jwks: null });
    expect(secretAgain.statusCode, secretAgain.body).toBe(200);
    const second = clientResponseSchema.parse(secretAgain.json()).client_secret!;
    expect(second).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(secretAgain.json().client).toMatchObject({ token_endpoint_auth_method: 'client_secret_basic', jwks: null });
    expect((await exchangeAs(id, second)).statusCode).toBe(200);
    expect((await exchangeAs(id, first)).json().error).toBe('invalid_client');
    expect((await adminCall(t, '/api/admin/clients', admin.token)).body).not.toContain(second);
    // Basic and form are one method each: a switch between them keeps the secret.
    expect((await update({ token_endpoint_auth_method: 'client_secret_post' })).json().client_secret).toBeUndefined();
    const rows = (await auditRows(t, 'client.update')).filter((r) => r.client_id === id);
    expect(rows).toHaveLength(3);
    expect(rows.map((r) => String(r.detail)).join()).toContain('token_endpoint_auth_method');
    for (const r of rows) expect(JSON.stringify(r)).not.toContain(second);
  });

  it('shows a confidential client that names no method as such (null: Basic or form, decision 0038), and an update may name one or leave it unset again', async () => {
    const id = `APIUNSET-${dialect}`;
    const secret = clientRegisterResponseSchema.parse((await call('/api/admin/clients/register', partner(TEST_ORIGIN, id))).json()).client_secret!;
    const viewOf = async (clientId: string) => adminClientsResponseSchema.parse((await adminCall(t, '/api/admin/clients', admin.token)).json()).clients.find((c) => c.client_id === clientId);
    expect((await viewOf(id))?.token_endpoint_auth_method).toBeNull();
    // A public client that names none authenticates with nothing: none, as before.
    expect((await viewOf('SIAP009'))?.token_endpoint_auth_method).toBe('none');
    const update = (changes: Record<string, unknown>) => call('/api/admin/clients/update', { client_id: id, ...changes, ...REASON });
    expect((await update({ token_endpoint_auth_method: 'client_secret_post' })).json()).toMatchObject({ result_code: 0, client: { token_endpoint_auth_method: 'client_secret_post' } });
    const unset = await update({ token_endpoint_auth_method: null });
    expect(unset.json()).toMatchObject({ result_code: 0, client: { token_endpoint_auth_method: null } });
    // The secret stays through both: each is a secret method; the Basic header works again.
    expect(unset.json().client_secret).toBeUndefined();
    expect((await exchangeAs(id, secret)).statusCode).toBe(200);
  });

  it('rotates a secret: both work in the overlap, only the new one after retire; each audited', async () => {
    const id = `APIROT-${dialect}`;
    const first = (await call('/api/admin/clients/register', partner(TEST_ORIGIN, id))).json().client_secret as string;
    const rotated = await call('/api/admin/clients/secret/rotate', { client_id: id, ...REASON });
    expect(rotated.statusCode, rotated.body).toBe(200);
    const second = rotated.json().client_secret as string;
    expect(rotated.json().old_retire_at).toBe(t.clock.now() + 7 * 24 * 60 * 60 * 1000);
    expect(second).not.toBe(first);
    expect((await exchangeAs(id, first)).statusCode).toBe(200);
    expect((await exchangeAs(id, second)).statusCode).toBe(200);
    const listed = (await adminCall(t, '/api/admin/clients', admin.token)).json().clients.find((c: { client_id: string }) => c.client_id === id);
    // Both made in the same millisecond of the test clock: their order is not the point, one of each is.
    expect(listed.secrets.map((s: { retire_at: number | null }) => s.retire_at === null).sort()).toEqual([false, true]);
    const retired = await call('/api/admin/clients/secret/retire', { client_id: id, ...REASON });
    expect(retired.json()).toMatchObject({ result_code: 0, retired: 1 });
    expect((await exchangeAs(id, first)).json().error).toBe('invalid_client');
    expect((await exchangeAs(id, second)).statusCode).toBe(200);
    expect((await auditRows(t, 'client.rotate_secret')).filter((r) => r.client_id === id)).toHaveLength(1);
    expect((await auditRows(t, 'client.retire_secret')).filter((r) => r.client_id === id)).toHaveLength(1);
    // A public client has no secret to rotate; an unknown one is named.
    expect((await call('/api/admin/clients/secret/rotate', { client_id: 'SIAP009', ...REASON })).json()).toMatchObject({ result_code: 901, validation_errors: [{ key: 'client_id' }] });
    expect((await call('/api/admin/clients/secret/rotate', { client_id: 'NOPE', ...REASON })).json()).toMatchObject({ result_code: 901, validation_errors: [{ key: 'client_id' }] });
  });

  it('disables a client: its tokens die at once (introspection inactive), the flows refuse it; updated and enabled again', async () => {
    const id = `APIDIS-${dialect}`;
    const secret = (await call('/api/admin/clients/register', partner(TEST_ORIGIN, id))).json().client_secret as string;
    const tokens = (await exchangeAs(id, secret)).json() as { access_token: string };
    const introspect = async () => (await t.app.inject({ method: 'POST', url: '/api/subuser/introspect', ...form({ token: tokens.access_token }, NET_ANSWER) })).json();
    expect(await introspect()).toMatchObject({ active: true, client_id: id });
    const disabled = await call('/api/admin/clients/disable', { client_id: id, ...REASON });
    expect(disabled.json()).toMatchObject({ result_code: 0, changed: true, ended: { sessions: 1 } });
    expect(await introspect()).toEqual({ active: false });
    expect((await postAuthorize(t.app, { clientId: id, redirectUri: redirectOf(TEST_ORIGIN, id) })).statusCode).toBe(400);
    expect((await auditRows(t, 'client.disable')).find((r) => r.client_id === id)).toMatchObject({ reason: REASON.reason, operator_id: adminId });
    // Again: nothing changes, still audited as asked.
    expect((await call('/api/admin/clients/disable', { client_id: id, ...REASON })).json()).toMatchObject({ changed: false });

    const moved = `${TEST_ORIGIN}/dev/partner/${id}/callback2`;
    const updated = await adminCall(t, '/api/admin/clients/update', admin.token, { client_id: id, redirect_uris: [moved], name: '新しい名前', ...REASON });
    expect(updated.json()).toMatchObject({ result_code: 0, client: { name: '新しい名前', redirect_uris: [moved], enabled: false } });
    const signed = await adminCall(t, '/api/admin/clients/update', admin.token, { client_id: id, id_token_signed_response_alg: 'ES256', userinfo_signed_response_alg: 'RS256', ...REASON });
    expect(signed.json()).toMatchObject({ result_code: 0, client: { id_token_signed_response_alg: 'ES256', userinfo_signed_response_alg: 'RS256' } });
    const unsigned = await adminCall(t, '/api/admin/clients/update', admin.token, { client_id: id, userinfo_signed_response_alg: null, ...REASON });
    expect(unsigned.json()).toMatchObject({ result_code: 0, client: { id_token_signed_response_alg: 'ES256', userinfo_signed_response_alg: null } });
    const hs256 = await adminCall(t, '/api/admin/clients/update', admin.token, { client_id: id, id_token_signed_response_alg: 'HS256', ...REASON });
    expect(hs256.json()).toMatchObject({ result_code: 901, validation_errors: [{ key: 'id_token_signed_response_alg', message: SIGNING_ALG_MESSAGE }] });
    expect((await adminCall(t, '/api/admin/clients/enable', admin.token, { client_id: id, ...REASON })).json()).toMatchObject({ result_code: 0, changed: true });
    expect((await postAuthorize(t.app, { clientId: id, redirectUri: moved })).statusCode).toBe(303);
    expect(await introspect()).toEqual({ active: false });
    expect((await auditRows(t, 'client.update')).find((r) => r.client_id === id)?.detail).toContain('redirect_uris');
    expect((await auditRows(t, 'client.enable')).find((r) => r.client_id === id)).toBeDefined();
    // A client's redirect URIs decide where members' codes go: changing or enabling it needs a fresh proof too.
    t.clock.advance(OPERATOR_LIMITS.freshProofMs + 1);
    for (const [url, body] of [
      ['/api/admin/clients/update', { client_id: id, redirect_uris: ['https://attacker.example/cb'], ...REASON }],
      ['/api/admin/clients/enable', { client_id: id, ...REASON }],
    ] as const) {
      const stale = await adminCall(t, url, admin.token, body);
      expect(stale.statusCode, url).toBe(401);
      expect(stale.json()).toMatchObject({ result_message: OPERATOR_MESSAGES.freshProofNeeded });
    }
    expect((await postAuthorize(t.app, { clientId: id, redirectUri: moved })).statusCode).toBe(303);
  });

  it('disables a client from the host: npm run admin -- disable-client, its tokens end, audited with the operator host', async () => {
    const id = `CLIDIS-${dialect}`;
    const secret = (await call('/api/admin/clients/register', partner(TEST_ORIGIN, id))).json().client_secret as string;
    const tokens = (await exchangeAs(id, secret)).json() as { access_token: string };
    const cli = (args: string[]) =>
      promisify(execFile)(process.execPath, ['--import', 'tsx', 'apps/server/src/admin-cli.ts', ...args], {
        cwd: REPO_ROOT,
        env: { ...process.env, NODE_ENV: 'development', DATABASE_URL: t.testDb.url, PUBLIC_ORIGIN: TEST_ORIGIN, SEED_DEMO: 'false' },
      });
    const { stdout } = await cli(['disable-client', '--client', id, '--reason', '漏えいの疑い']);
    expect(stdout).toContain(`client disabled: ${id} (sessions ended: 1`);
    const introspected = await t.app.inject({ method: 'POST', url: '/api/subuser/introspect', ...form({ token: tokens.access_token }, NET_ANSWER) });
    expect(introspected.json()).toEqual({ active: false });
    await eventually(async () => expect((await postAuthorize(t.app, { clientId: id, redirectUri: redirectOf(TEST_ORIGIN, id) })).statusCode).toBe(400));
    expect((await auditRows(t, 'client.disable')).find((r) => r.client_id === id)).toMatchObject({ operator_id: 'host', operator_role: 'host', reason: '漏えいの疑い' });
    await expect(cli(['disable-client', '--client', id])).rejects.toMatchObject({ code: 2 });
    await expect(cli(['disable-client', '--client', 'NOSUCH', '--reason', 'x'])).rejects.toMatchObject({ code: 1, stderr: expect.stringContaining('no client is registered as NOSUCH') });
    // Three starts of the command on the host: each loads the server's code afresh.
  }, 90_000);

  it('disables an operator: their sessions end at once and sign-in refuses them; enabled, they sign in again; never oneself or the last administrator', async () => {
    const invited = await invite(t, admin.token, { email: `victim-${dialect}@card.example.jp`, role: 'support' });
    const victimId = invited.json().operator.id as string;
    const authenticator = new SoftAuthenticator(TEST_ORIGIN);
    expect((await enrol(t, enrolmentToken(invited.json().enrolment_url), authenticator)).enrolled!.json()).toMatchObject({ result_code: 0 });
    const victimToken = (await signIn(t, authenticator)).json().access_token as string;
    expect((await adminCall(t, '/api/admin/me', victimToken)).statusCode).toBe(200);

    const disabled = await call('/api/admin/operators/disable', { operator_id: victimId, ...REASON });
    expect(disabled.json()).toMatchObject({ result_code: 0, changed: true, ended_sessions: 1 });
    expect((await adminCall(t, '/api/admin/me', victimToken)).statusCode).toBe(401);
    expect((await signIn(t, authenticator)).json()).toMatchObject({ result_code: 902, result_message: OPERATOR_MESSAGES.notAccepted });
    expect((await auditRows(t, 'operator.disable')).find((r) => String(r.detail).includes(victimId))).toMatchObject({ operator_id: adminId, reason: REASON.reason, ticket: REASON.ticket });

    expect((await call('/api/admin/operators/enable', { operator_id: victimId, ...REASON })).json()).toMatchObject({ result_code: 0, changed: true });
    expect((await signIn(t, authenticator)).statusCode).toBe(200);
    expect((await auditRows(t, 'operator.enable')).find((r) => String(r.detail).includes(victimId))).toBeDefined();

    expect((await call('/api/admin/operators/disable', { operator_id: adminId, ...REASON })).json()).toMatchObject({ result_code: 901, validation_errors: [{ key: 'operator_id', message: ADMIN_CLIENT_MESSAGES.notSelf }] });
    expect((await call('/api/admin/operators/disable', { operator_id: 'nobody', ...REASON })).json()).toMatchObject({ result_code: 901, validation_errors: [{ message: ADMIN_CLIENT_MESSAGES.unknownOperator }] });
    // Another administrator may be disabled (root stays, active): their token dies with it.
    const other = await enrolledOperator(t, enrolmentToken((await invite(t, admin.token, { email: `admin2-${dialect}@card.example.jp`, role: 'admin' })).json().enrolment_url));
    const otherId = (await adminCall(t, '/api/admin/me', other.token)).json().operator.id as string;
    expect((await call('/api/admin/operators/disable', { operator_id: otherId, ...REASON })).json()).toMatchObject({ result_code: 0, changed: true });
    expect((await adminCall(t, '/api/admin/operators', other.token)).statusCode).toBe(401);
    // Both sensitive: without a fresh proof, 401.
    t.clock.advance(OPERATOR_LIMITS.freshProofMs + 1);
    expect((await adminCall(t, '/api/admin/operators/enable', admin.token, { operator_id: otherId, ...REASON })).statusCode).toBe(401);
  });
});

describe.each(DIALECTS)('a client registered through the API, with openid-client (%s)', (dialect) => {
  const t = withListeningApp(dialect, REFRESH);
  it('logs a member in to it without a restart; once disabled, its tokens answer inactive and its secret is refused', async () => {
    const { link } = await bootstrapAdmin({ db: t.testDb.db.kysely, clock: t.clock, issuer: t.origin }, { email: 'rp@card.example.jp', name: '管理者' });
    const authenticator = new SoftAuthenticator(t.origin);
    const { enrolled } = await enrol(t, /#token=(.+)$/.exec(link.url)![1]!, authenticator);
    expect(enrolled!.json()).toMatchObject({ result_code: 0 });
    const token = (await signIn(t, authenticator)).json().access_token as string;
    const id = `RPAPI-${dialect}`;
    const registered = await adminCall(t, '/api/admin/clients/register', token, partner(t.origin, id, { scopes: ['openid', 'profile'] }));
    expect(registered.statusCode, registered.body).toBe(200);
    const secret = registered.json().client_secret as string;

    const config = await client.discovery(new URL(t.origin), id, { [client.clockSkew]: Math.round((t.clock.now() - Date.now()) / 1000) }, client.ClientSecretBasic(secret), {
      execute: [client.allowInsecureRequests, client.enableNonRepudiationChecks],
    });
    const { tokens, claims } = await rpSignIn(config, { origin: t.origin, scope: 'openid profile' });
    expect(claims).toMatchObject({ iss: t.origin, aud: id });
    expect((await client.tokenIntrospection(await netAnswer(t.origin), tokens.access_token)).active).toBe(true);

    expect((await adminCall(t, '/api/admin/clients/disable', token, { client_id: id, ...REASON })).json()).toMatchObject({ result_code: 0, changed: true });
    expect((await client.tokenIntrospection(await netAnswer(t.origin), tokens.access_token)).active).toBe(false);
    // The client's own secret is refused now: 401 with a Basic challenge (RFC 6749 section 5.2, invalid_client).
    await expect(client.refreshTokenGrant(config, tokens.refresh_token!)).rejects.toMatchObject({ status: 401 });
  });
});

const netAnswer = (origin: string) =>
  client.discovery(new URL(origin), 'SIAP004', {}, client.ClientSecretBasic('demo-secret-SIAP004'), { execute: [client.allowInsecureRequests] });

/** Another node's start on the same database: the whole app, its own clock. */
async function startNode(db: Db, url: string): Promise<FastifyInstance> {
  const config = loadConfig({ NODE_ENV: 'test', DATABASE_URL: url, PUBLIC_ORIGIN: TEST_ORIGIN, SEED_DEMO: 'true', WEB_DIST: '/nonexistent', SMTP_SINK_PORT: '0', LOGIN_NOTICE: 'false', ...REFRESH });
  return buildApp(config, { db, clock: new ManualClock(Date.now()), logger: false });
}

describe('two nodes on one PostgreSQL database, through the API', () => {
  const t = withTestApp('postgres', REFRESH);
  let other: { db: Db; app: FastifyInstance };
  beforeAll(async () => {
    const db = openDatabase(t.testDb.url);
    other = { db, app: await startNode(db, t.testDb.url) };
  });
  afterAll(async () => {
    await other.app.close();
    await other.db.close();
  });

  it('a client registered, changed and then disabled on one node is known, changed, then refused, on the other within seconds', async () => {
    const root = await signedInAdmin(t, 'nodes@card.example.jp');
    const id = 'TWOAPI1';
    const secret = (await adminCall(t, '/api/admin/clients/register', root.token, partner(TEST_ORIGIN, id))).json().client_secret as string;
    const introspectOn = (app: FastifyInstance) => app.inject({ method: 'POST', url: '/api/subuser/introspect', ...form({ token: 'x' }, basic(id, secret)) });
    await eventually(async () => expect((await introspectOn(other.app)).statusCode).toBe(200));
    // A flag changed on one node holds on the other too, within its poll: pushed requests only (decision 0036).
    const plainOn = (app: FastifyInstance) => postAuthorize(app, { clientId: id, redirectUri: redirectOf(TEST_ORIGIN, id) });
    expect((await plainOn(other.app)).statusCode).toBe(303);
    expect((await adminCall(t, '/api/admin/clients/update', root.token, { client_id: id, require_pushed_authorization_requests: true, ...REASON })).json()).toMatchObject({ result_code: 0 });
    await eventually(async () => expect((await plainOn(other.app)).statusCode).toBe(400));
    expect((await adminCall(t, '/api/admin/clients/disable', root.token, { client_id: id, ...REASON })).json()).toMatchObject({ changed: true });
    const at = Date.now();
    await eventually(async () => expect((await introspectOn(other.app)).json().error).toBe('invalid_client'));
    expect(Date.now() - at).toBeLessThan(5000);
    await eventually(async () => expect((await postAuthorize(other.app, { clientId: id, redirectUri: redirectOf(TEST_ORIGIN, id) })).statusCode).toBe(400));
  });
});
