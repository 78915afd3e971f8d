import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { createRemoteJWKSet, decodeJwt, decodeProtectedHeader, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as client from 'openid-client';
import { REPO_ROOT } from '../../config.ts';
import { ManualClock } from '../../lib/clock.ts';
import { open } from '../../lib/sealed-box.ts';
import { DEVELOPMENT_SIGNING_KEY_SECRET } from '../../lib/secrets.ts';
import { withListeningApp } from '../../test-support/vitest.ts';
import { relyingParty, signIn } from '../../test-support/oidc-kit.ts';
import { createMigratedTestDb, DIALECTS, type TestDb } from '../../test-support/test-db.ts';
import { listSigningKeys, type SigningKeyRow } from './signing-key-repo.ts';
import { ensureSigningKey, SIGNING_ALGS, SIGNING_KEYS, signingKeyStore } from './signing-keys.ts';

const run = promisify(execFile);
const SCOPE = 'openid user:read';

/** The kids the server publishes now. */
const publishedKids = async (origin: string) => ((await (await fetch(`${origin}/api/auth/jwks`)).json()) as { keys: { kid: string }[] }).keys.map((k) => k.kid);

/**
 * The signing keys (decision 0025; migration 0016): made once whatever the number of nodes starting,
 * sealed at rest, and rotated by `npm run keys:rotate` without a client ever meeting a kid it cannot
 * find or an ID token it can no longer verify.
 */
describe.each(DIALECTS)('signing keys (%s)', (dialect) => {
  describe('the first start', () => {
    let testDb: TestDb;
    beforeAll(async () => {
      testDb = await createMigratedTestDb(dialect);
    });
    afterAll(async () => testDb.drop());

    it('makes one key of each algorithm when several nodes start at once, and every node signs with them', async () => {
      const clock = new ManualClock(Date.now());
      const nodes = Array.from({ length: 4 }, () => ({ db: testDb.db.kysely, clock, secret: DEVELOPMENT_SIGNING_KEY_SECRET }));
      await Promise.all(nodes.map((deps) => ensureSigningKey(deps)));
      const rows = await listSigningKeys(testDb.db.kysely);
      expect(rows).toHaveLength(2);
      expect(rows[0]).toMatchObject({ generation: 1, alg: 'RS256', active_from: clock.now(), retire_after: null, expires_at: null });
      expect(rows[1]).toMatchObject({ generation: 2, alg: 'ES256', active_from: clock.now(), retire_after: null, expires_at: null });
      expect(JSON.parse(rows[0]!.public_jwk)).toEqual({ kty: 'RSA', n: expect.stringMatching(/^[\w-]{342}$/), e: 'AQAB' });
      expect(JSON.parse(rows[1]!.public_jwk)).toEqual({ kty: 'EC', crv: 'P-256', x: expect.any(String), y: expect.any(String) });
      for (const [i, alg] of SIGNING_ALGS.entries()) {
        const kids = await Promise.all(nodes.map(async (deps) => (await signingKeyStore(deps).signingKey(alg)).kid));
        expect(new Set(kids)).toEqual(new Set([rows[i]!.kid]));
      }
      // A start that finds both makes none.
      await ensureSigningKey(nodes[0]!);
      expect(await listSigningKeys(testDb.db.kysely)).toHaveLength(2);
    });

    it('keeps each private key sealed with AES-256-GCM under SIGNING_KEY_SECRET, and a start with another secret stops', async () => {
      for (const row of await listSigningKeys(testDb.db.kysely)) {
        const privateJwk = JSON.parse(open({ secret: DEVELOPMENT_SIGNING_KEY_SECRET, purpose: 'oidc-signing-key', sealed: row.private_jwk_sealed, aad: row.kid })) as { d: string };
        expect(privateJwk.d).toMatch(row.alg === 'ES256' ? /^[\w-]{43}$/ : /^[\w-]{300,}$/);
        expect(row.private_jwk_sealed).toMatch(/^v1\./);
        expect(row.private_jwk_sealed).not.toContain(privateJwk.d);
        expect(row.public_jwk).not.toContain('"d"');
        // Sealed for its own kid: copied onto another row it does not open.
        expect(() => open({ secret: DEVELOPMENT_SIGNING_KEY_SECRET, purpose: 'oidc-signing-key', sealed: row.private_jwk_sealed, aad: 'another-kid' })).toThrow();
      }
      const other = { db: testDb.db.kysely, clock: new ManualClock(Date.now()), secret: 'another-secret-of-32-characters-or-more' };
      await expect(ensureSigningKey(other)).rejects.toThrow(/SIGNING_KEY_SECRET does not open the signing key/);
    });
  });

  describe('a deployment that holds only an ES256 key (from before decision 0034)', () => {
    let testDb: TestDb;
    beforeAll(async () => {
      testDb = await createMigratedTestDb(dialect);
    });
    afterAll(async () => testDb.drop());

    it('gets one RS256 key at its next start, signing at once, however many nodes start, and keeps its ES256 key', async () => {
      const clock = new ManualClock(Date.now());
      const deps = { db: testDb.db.kysely, clock, secret: DEVELOPMENT_SIGNING_KEY_SECRET };
      await ensureSigningKey(deps);
      await testDb.db.kysely.deleteFrom('signing_keys').where('alg', '=', 'RS256').execute();
      const [es256] = (await listSigningKeys(testDb.db.kysely)) as [SigningKeyRow];
      expect(es256).toMatchObject({ generation: 2, alg: 'ES256' });

      clock.advance(60_000);
      await Promise.all(Array.from({ length: 4 }, () => ensureSigningKey(deps)));
      const rows = await listSigningKeys(testDb.db.kysely);
      expect(rows.map((r) => [r.generation, r.alg])).toEqual([
        [2, 'ES256'],
        [3, 'RS256'],
      ]);
      expect(rows[0]).toEqual(es256);
      expect(rows[1]).toMatchObject({ active_from: clock.now(), retire_after: null, expires_at: null });
      const store = signingKeyStore(deps);
      expect((await store.signingKey('RS256')).kid).toBe(rows[1]!.kid);
      expect((await store.signingKey('ES256')).kid).toBe(es256.kid);
      expect((await store.jwks()).keys.map((k) => [k.kid, k.alg, k.use])).toEqual([
        [es256.kid, 'ES256', 'sig'],
        [rows[1]!.kid, 'RS256', 'sig'],
      ]);
    });
  });

  describe('a rotation', () => {
    const t = withListeningApp(dialect);
    /** How far the server's manual clock is ahead of this machine's, for openid-client's checks. */
    const skew = () => Math.round((t.clock.now() - Date.now()) / 1000);

    /** The kid and alg of an ID token a sign-in at `clientId` gets now. */
    const signedWith = async (clientId: string) => {
      const { tokens } = await signIn(await relyingParty(t.origin, clientId, skew()), { origin: t.origin, scope: SCOPE });
      const { kid, alg } = decodeProtectedHeader(tokens.id_token!);
      return { kid, alg, tokens };
    };

    it('publishes the new keys before they sign, keeps the old ones until their tokens expire, and every token of either algorithm verifies by the JWK Set', async () => {
      // SIAP004 registered RS256 (the default), SIAP009 ES256 (config/clients.json).
      const [oldRs, oldEs] = (await listSigningKeys(t.testDb.db.kysely)).map((r) => r.kid) as [string, string];
      expect(await signedWith('SIAP004')).toMatchObject({ kid: oldRs, alg: 'RS256' });
      expect(await signedWith('SIAP009')).toMatchObject({ kid: oldEs, alg: 'ES256' });
      expect(await publishedKids(t.origin)).toEqual([oldRs, oldEs]);

      // The command an operator runs, on the server's database (docs/operations.md, "Signing keys").
      const env = { ...process.env, NODE_ENV: 'test', DATABASE_URL: t.testDb.url, LOG_LEVEL: 'silent' };
      const rotated = await run(process.execPath, ['--import', 'tsx', 'apps/server/src/keys-rotate.ts'], { cwd: REPO_ROOT, env });
      expect(rotated.stdout).toMatch(/^signing keys [\w-]{43}, [\w-]{43} published; they sign from /);
      // The command ran on this machine's clock, the server runs on the test's: times are read off the rows.
      const rows = (await listSigningKeys(t.testDb.db.kysely)) as [SigningKeyRow, SigningKeyRow, SigningKeyRow, SigningKeyRow];
      expect(rows.map((r) => r.alg)).toEqual(['RS256', 'ES256', 'RS256', 'ES256']);
      const [, , nextRs, nextEs] = rows;
      expect(nextEs.active_from).toBe(nextRs.active_from);
      expect(nextRs.active_from - nextRs.created_at).toBe(SIGNING_KEYS.activationDelayMs);
      for (const old of rows.slice(0, 2)) expect(old).toMatchObject({ retire_after: nextRs.active_from, expires_at: nextRs.active_from + SIGNING_KEYS.retentionMs });
      const newKids = [nextRs.kid, nextEs.kid];

      // Within a node's cache the server still answers what it read; then all four keys are published, the old ones still sign.
      t.clock.advance(SIGNING_KEYS.cacheMs);
      expect(await publishedKids(t.origin)).toEqual([oldRs, oldEs, ...newKids]);
      const published = await signedWith('SIAP004');
      expect(published).toMatchObject({ kid: oldRs, alg: 'RS256' });
      expect(await signedWith('SIAP009')).toMatchObject({ kid: oldEs, alg: 'ES256' });

      // From their activation the new keys sign, each for its algorithm: sign-ins and refreshes alike.
      t.clock.advance(nextRs.active_from - t.clock.now());
      expect(await signedWith('SIAP004')).toMatchObject({ kid: nextRs.kid, alg: 'RS256' });
      expect(await signedWith('SIAP009')).toMatchObject({ kid: nextEs.kid, alg: 'ES256' });
      const refreshed = await client.refreshTokenGrant(await relyingParty(t.origin, 'SIAP004', skew()), published.tokens.refresh_token!);
      expect(decodeProtectedHeader(refreshed.id_token!)).toMatchObject({ kid: nextRs.kid, alg: 'RS256' });

      // An ID token signed before the rotation still verifies by the JWK Set as a partner fetches it.
      const jwks = createRemoteJWKSet(new URL(`${t.origin}/api/auth/jwks`));
      const signedBefore = decodeJwt(published.tokens.id_token!);
      const verified = await jwtVerify(published.tokens.id_token!, jwks, { issuer: t.origin, audience: 'SIAP004', currentDate: new Date((signedBefore.iat! + 60) * 1000) });
      expect(verified.protectedHeader.kid).toBe(oldRs);

      // Once every token they signed has expired, the old keys are no longer published.
      t.clock.advance(rows[0].expires_at! - t.clock.now());
      expect(await publishedKids(t.origin)).toEqual(newKids);
      expect(await signedWith('SIAP004')).toMatchObject({ kid: nextRs.kid, alg: 'RS256' });
      expect(await signedWith('SIAP009')).toMatchObject({ kid: nextEs.kid, alg: 'ES256' });
    });
  });
});
