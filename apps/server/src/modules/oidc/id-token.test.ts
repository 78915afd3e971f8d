import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { createLocalJWKSet, decodeJwt, jwtVerify } from 'jose';
import { Kysely, SqliteDialect } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACR_VALUES } from '@sso/contracts/constants';
import { migrateToLatest } from '../../db/migrations.ts';
import type { Database } from '../../db/schema.ts';
import { ManualClock } from '../../lib/clock.ts';
import { DEVELOPMENT_SIGNING_KEY_SECRET, newId } from '../../lib/secrets.ts';
import { LoginBrowser, memberWithPasskey } from '../../test-support/passkey-kit.ts';
import { exchange, getCode, loginTokens, withTestApp } from '../../test-support/test-app.ts';
import { DIALECTS } from '../../test-support/test-db.ts';
import type { OAuthClient } from '../clients/clients.ts';
import { insertFamily } from '../oauth/token-repo.ts';
import { refreshTokens } from '../oauth/token-service.ts';
import { issuePair } from '../oauth/tokens.ts';
import { jwtSigner } from './jwt-signer.ts';
import { ensureSigningKey, signingKeyStore } from './signing-keys.ts';
import { subjectFor } from './subject.ts';

/**
 * The ID token of a refresh is made from the row the refresh reads anyway, with the key the node
 * imported once (decision 0025, docs/performance.md): a refresh with `openid` runs exactly the
 * statements of one without it. SQLite's statements, captured as they run, as token-repo.test.ts does.
 */
describe('the refresh with openid (sqlite statements)', () => {
  const file = join(tmpdir(), `sso-id-token-${newId()}.db`);
  const sqlite = new SQLite(file);
  // The statements do not depend on the member's row: a session without it is enough.
  sqlite.pragma('foreign_keys = OFF');
  const statements: string[] = [];
  const db = new Kysely<Database>({
    dialect: new SqliteDialect({ database: sqlite }),
    log: (event) => {
      if (event.level === 'query') statements.push(event.query.sql);
    },
  });
  const clock = new ManualClock(Date.now());
  const signingKeys = signingKeyStore({ db, clock, secret: DEVELOPMENT_SIGNING_KEY_SECRET });
  const signer = jwtSigner(signingKeys, { warn: (message) => expect.fail(message) });
  const web = { client_id: 'SIAP009', sector_identifier: 'member-id-apps', id_token_signed_response_alg: 'ES256' } as OAuthClient;
  const deps = { db, clock, issuer: 'https://id.example', signingKeys, signer, clients: { get: (id: string) => (id === web.client_id ? web : undefined) } };

  /** A session of the web client with the scope, and its refresh token; `legacy`: as sessions from before migrations 0015 and 0018 are. */
  async function session(scope: string, legacy = false): Promise<string> {
    const id = newId();
    const authTime = clock.now() - 60_000;
    const context = legacy ? { auth_time: null, amr: null, sso_session_id: null, subject: null } : { auth_time: authTime, amr: 'pwd', sso_session_id: 'sso-1', subject: subjectFor(web, 'u1') };
    await insertFamily(db, { id, user_id: 'u1', client_id: 'SIAP009', terminal_id: null, scope, audience: 'member-api', created_at: authTime, revoked_at: null, proved_at: null, ...context });
    return (await issuePair(db, id, null, scope, clock.now())).refresh_token!;
  }

  beforeAll(async () => {
    await migrateToLatest(db);
    // The refresh reads the client's enabled flag with its token (decision 0031): the web client's row.
    await db.insertInto('oauth_clients').values({ client_id: web.client_id, definition: '{}', enabled: 1, created_at: clock.now(), updated_at: clock.now() }).execute();
    await ensureSigningKey({ db, clock, secret: DEVELOPMENT_SIGNING_KEY_SECRET });
    // The node's first read of the keys, at its first signature: once a minute, not per token.
    await signingKeys.signingKey('ES256');
  });
  afterAll(async () => {
    await signer.close();
    await db.destroy();
    for (const suffix of ['', '-wal', '-shm']) rmSync(file + suffix, { force: true });
  });

  it('runs the same statements as a refresh without it, and answers an ID token of the session', async () => {
    const [withOpenid, without] = [await session('openid user:read'), await session('user:read')];
    statements.length = 0;
    const a = await refreshTokens(deps, { refreshToken: withOpenid, client: web, terminalId: null });
    const readWith = [...statements];
    statements.length = 0;
    const b = await refreshTokens(deps, { refreshToken: without, client: web, terminalId: null });
    expect(b.id_token).toBeUndefined();
    expect(readWith).toEqual(statements);
    expect(readWith.length).toBeGreaterThan(0);

    const { payload } = await jwtVerify(a.id_token!, createLocalJWKSet(await signingKeys.jwks()), { issuer: 'https://id.example', audience: 'SIAP009', currentDate: new Date(clock.now()) });
    expect(payload).toMatchObject({ sub: subjectFor(web, 'u1'), auth_time: Math.floor((clock.now() - 60_000) / 1000), amr: ['pwd'], acr: ACR_VALUES.basic, sid: 'sso-1' });
    expect(payload).not.toHaveProperty('nonce');
  });

  it('answers a session from before the authentication context and the stored subject with the same subject, its start as auth_time, and no amr', async () => {
    const old = await refreshTokens(deps, { refreshToken: await session('openid', true), client: web, terminalId: null });
    const claims = decodeJwt(old.id_token!);
    expect(claims).toMatchObject({ sub: subjectFor(web, 'u1'), auth_time: Math.floor((clock.now() - 60_000) / 1000) });
    for (const absent of ['amr', 'acr', 'sid', 'nonce']) expect(claims).not.toHaveProperty(absent);
  });
});

/**
 * How the member signed in, in the ID token (decision 0025): RFC 8176 `amr` and this server's `acr`,
 * a synced passkey and a device-bound one told apart by the credential's backup eligibility.
 */
describe.each(DIALECTS)('the sign-in methods of the ID token (%s)', (dialect) => {
  const t = withTestApp(dialect);

  const idTokenOf = async (tokens: { id_token?: string }) => decodeJwt(tokens.id_token!);

  it('says pwd for a password, basic', async () => {
    expect(await idTokenOf(await loginTokens(t.app))).toMatchObject({ amr: ['pwd'], acr: ACR_VALUES.basic });
  });

  it.each([
    ['a synced passkey', { synced: true, counting: false }, 'swk'],
    ['a device-bound passkey', { synced: false, counting: true }, 'hwk'],
  ])('says %s by its key, phishing-resistant', async (_name, kind, amr) => {
    const { member, authenticator } = await memberWithPasskey(t, kind);
    const answer = (await new LoginBrowser().signIn(t, authenticator)).json();
    const code = await getCode(t.app, { user: member.email, password: '', ticket: answer.login_ticket, recaptcha: '' });
    const tokens = (await exchange(t.app, code)).json();
    expect(await idTokenOf(tokens)).toMatchObject({ amr: [amr], acr: ACR_VALUES.phishingResistant });
  });
});
