import { randomUUID } from 'node:crypto';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp, type AppOverrides } from '../app.ts';
import { loadConfig, REPO_ROOT } from '../config.ts';
import type { Dialect } from '../db/database.ts';
import { ManualClock } from '../lib/clock.ts';
import { sha256 } from '../lib/secrets.ts';
import { createMigratedTestDb, createTestDb, type TestDb } from './test-db.ts';
import { authorizeQuery as query, basicAuth, bearer, codeGrant, codeIn, FIXED_PKCE, loginForm, SPA_CLIENT_ID, spaRedirect } from './oauth-client.ts';

export { bearer };

/*
 * The real app in process for the tests, and its OAuth client over inject(): vitest-free, so that the
 * tools outside vitest (bench/) use it as the suites do. The describe block's lifecycle is vitest.ts;
 * the unit tests import both through test-app.ts.
 */

export const TEST_ORIGIN = 'http://sso.test';

/**
 * config/clients.json with secrets of its own for the confidential clients: a production start
 * refuses the published demo secrets (config.ts). Written whole and renamed into place, so that test
 * files starting at once never read half of it.
 */
function clientsWithOwnSecrets(): string {
  const clients = JSON.parse(readFileSync(`${REPO_ROOT}config/clients.json`, 'utf8')) as { client_id: string; secret_sha256?: string }[];
  const own = clients.map((c) => (c.secret_sha256 ? { ...c, secret_sha256: sha256(`test-only-secret-${c.client_id}`) } : c));
  const file = join(tmpdir(), 'sso-test-production-clients.json');
  const partial = `${file}.${randomUUID()}`;
  writeFileSync(partial, JSON.stringify(own));
  renameSync(partial, file);
  return file;
}

/** What a production start needs beyond NODE_ENV (config.ts), for tests of what production leaves out. */
export const PRODUCTION_ENV = {
  NODE_ENV: 'production',
  SMTP_URL: 'smtp://127.0.0.1:9',
  SEED_DEMO: 'false',
  LOOKUP_KEY: 'test-only-lookup-key-of-32-characters-or-more',
  PAIRWISE_KEY: 'test-only-pairwise-key-of-32-characters-or-more',
  SIGNING_KEY_SECRET: 'test-only-signing-key-secret-of-32-characters',
  RECAPTCHA_SECRET: 'test-only-recaptcha-secret',
  // The tests' systems are staging ones: the external systems answer by their simulators.
  ALLOW_SIMULATORS: 'staging',
  CLIENTS_FILE: clientsWithOwnSecrets(),
};
export const WEB_REDIRECT = spaRedirect(TEST_ORIGIN);
export const { verifier: VERIFIER, challenge: CHALLENGE } = FIXED_PKCE;

export interface TestApp {
  app: FastifyInstance;
  clock: ManualClock;
  testDb: TestDb;
  close(): Promise<void>;
}

/** The test app's environment on the database at `databaseUrl`: the demo seed, no SPA build. */
export const testAppEnv = (databaseUrl: string): Record<string, string> => ({
  NODE_ENV: 'test',
  DATABASE_URL: databaseUrl,
  PUBLIC_ORIGIN: TEST_ORIGIN,
  SEED_DEMO: 'true',
  WEB_DIST: '/nonexistent',
  // Each test app has its own SMTP sink on a free port, so that test files can run in parallel.
  SMTP_SINK_PORT: '0',
  // The sign-in notice mails every inject() login (no device cookie): off but where a test is about it.
  LOGIN_NOTICE: 'false',
});

/**
 * The real app (real database, demo seed, real routes) on a fresh database, with a manual clock: the
 * app's start migrates it, which finds the copied schema current.
 * `overrides` replaces an external system's port, such as a card master that records its calls.
 */
export async function createTestApp(
  dialect: Dialect,
  env: Record<string, string> = {},
  overrides: Pick<AppOverrides, 'cardMaster' | 'netAnswer' | 'pointLedger' | 'sms' | 'logStream' | 'hugePagesFile'> = {},
  /** Runs on the empty database before the app starts on it (an upgrade test leaves an older schema with rows). */
  before?: (db: TestDb['db']) => Promise<void>,
): Promise<TestApp> {
  // At the latest schema already (a copy of the run's migrated template), unless `before` starts from an empty one.
  const testDb = before ? await createTestDb(dialect) : await createMigratedTestDb(dialect);
  await before?.(testDb.db);
  const config = loadConfig({ ...testAppEnv(testDb.url), ...env });
  const clock = new ManualClock(Date.now());
  // No log, unless the test reads it.
  const app = await buildApp(config, { ...overrides, clock, db: testDb.db, logger: overrides.logStream !== undefined });
  return {
    app,
    clock,
    testDb,
    close: async () => {
      await app.close();
      await testDb.drop();
    },
  };
}

export interface AuthorizeParams {
  clientId?: string;
  redirectUri?: string;
  state?: string;
  challenge?: string;
  method?: string;
  user?: string;
  password?: string;
  terms?: string[];
  /** The login step's ticket (one password hash per login), posted as the SPA posts it. */
  ticket?: string;
  /** The form's reCAPTCHA token, which a post without a live ticket needs (decision 0011); '' sends none. */
  recaptcha?: string;
  /** The scope asked for; none by default, which grants the client's own (docs/decisions/0010-scopes-and-audience.md). */
  scope?: string;
  /** The DPoP key the code is to be redeemed with (RFC 9449 section 10). */
  dpopJkt?: string;
}

export function authorizeQuery(p: AuthorizeParams = {}): string {
  const q = query({
    clientId: p.clientId ?? SPA_CLIENT_ID,
    redirectUri: p.redirectUri ?? WEB_REDIRECT,
    state: p.state ?? 'state-123',
    scope: p.scope,
    challenge: p.challenge ?? CHALLENGE,
    method: p.method ?? 'S256',
  });
  if (p.dpopJkt) q.set('dpop_jkt', p.dpopJkt);
  return q.toString();
}

/** Posts the login form to the authorize endpoint as the SPA's hidden form does, from the SPA's origin (http/own-origin-post.ts). */
export async function postAuthorize(app: FastifyInstance, p: AuthorizeParams = {}) {
  const recaptcha = p.recaptcha === '' ? undefined : (p.recaptcha ?? 'test-recaptcha');
  const form = loginForm({ user: p.user ?? 'demo.card@example.com', password: p.password ?? 'Demo1234', terms: p.terms, ticket: p.ticket, recaptcha });
  return app.inject({
    method: 'POST',
    url: `/api/auth/authorize?${authorizeQuery(p)}`,
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: TEST_ORIGIN },
    payload: form.toString(),
  });
}

export async function getCode(app: FastifyInstance, p: AuthorizeParams = {}): Promise<string> {
  const res = await postAuthorize(app, p);
  return codeIn(res.statusCode, res.headers.location as string | undefined);
}

export const form = (fields: Record<string, string | undefined>, headers: Record<string, string> = {}) => ({
  headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
  payload: new URLSearchParams(Object.entries(fields).filter((e): e is [string, string] => e[1] !== undefined)).toString(),
});

export async function tokenRequest(app: FastifyInstance, fields: Record<string, string | undefined>, headers: Record<string, string> = {}) {
  return app.inject({ method: 'POST', url: '/api/auth/token', ...form(fields, headers) });
}

export async function exchange(app: FastifyInstance, code: string, extra: Record<string, string | undefined> = {}) {
  return tokenRequest(app, { ...codeGrant({ code, clientId: SPA_CLIENT_ID, redirectUri: WEB_REDIRECT, verifier: VERIFIER, terminalId: 'terminal-1' }), ...extra });
}

/** Logs the demo card member in through the whole code flow and returns the token response. */
export async function loginTokens(app: FastifyInstance, p: AuthorizeParams = {}) {
  const res = await exchange(app, await getCode(app, p));
  if (res.statusCode !== 200) throw new Error(`token exchange failed: ${res.body}`);
  return res.json() as { access_token: string; refresh_token: string; expires_in: number; token_type: string; id_token?: string };
}

export const basic = basicAuth;
export const NET_ANSWER = basic('SIAP004', 'demo-secret-SIAP004');

/** A partner's introspection (RFC 7662) of a token with Net Answer's client credentials: the answer's body. */
export async function introspectToken(app: FastifyInstance, token: string): Promise<Record<string, unknown>> {
  const res = await app.inject({ method: 'POST', url: '/api/subuser/introspect', ...form({ token }, NET_ANSWER) });
  return res.json();
}
