import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { createRemoteJWKSet, decodeJwt, decodeProtectedHeader, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as client from 'openid-client';
import { REPO_ROOT } from '../../config.ts';
import { migrateToLatest } from '../../db/migrations.ts';
import { ManualClock } from '../../lib/clock.ts';
import { open } from '../../lib/sealed-box.ts';
import { DEVELOPMENT_SIGNING_KEY_SECRET } from '../../lib/secrets.ts';
import { withListeningApp } from '../../test-support/vitest.ts';
import { relyingParty, signIn } from '../../test-support/oidc-kit.ts';
import { createTestDb, DIALECTS, type TestDb } from '../../test-support/test-db.ts';
import { listSigningKeys, type SigningKeyRow } from './signing-key-repo.ts';
import { ensureSigningKey, SIGNING_KEYS, signingKeyStore } from './signing-keys.ts';

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
      testDb = await createTestDb(dialect);
      await migrateToLatest(testDb.db.kysely);
    });
    afterAll(async () => testDb.drop());

    it('makes one key when several nodes start at once, and every node signs with it', async () => {
      const clock = new ManualClock(Date.now());
      const nodes = Array.from({ length: 4 }, () => ({ db: testDb.db.kysely, clock, secret: DEVELOPMENT_SIGNING_KEY_SECRET }));
      await Promise.all(nodes.map((deps) => ensureSigningKey(deps)));
      const rows = await listSigningKeys(testDb.db.kysely);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ generation: 1, alg: 'ES256', retire_after: null, expires_at: null });
      const kids = await Promise.all(nodes.map(async (deps) => (await signingKeyStore(deps).signingKey()).kid));
      expect(new Set(kids)).toEqual(new Set([rows[0]!.kid]));
    });

    it('keeps the private key sealed with AES-256-GCM under SIGNING_KEY_SECRET, and a start with another secret stops', async () => {
      const [row] = await listSigningKeys(testDb.db.kysely);
      const privateJwk = JSON.parse(open({ secret: DEVELOPMENT_SIGNING_KEY_SECRET, purpose: 'oidc-signing-key', sealed: row!.private_jwk_sealed, aad: row!.kid })) as { d: string };
      expect(privateJwk.d).toMatch(/^[\w-]{43}$/);
      expect(row!.private_jwk_sealed).toMatch(/^v1\./);
      expect(row!.private_jwk_sealed).not.toContain(privateJwk.d);
      expect(row!.public_jwk).not.toContain('"d"');
      // Sealed for its own kid: copied onto another row it does not open.
      expect(() => open({ secret: DEVELOPMENT_SIGNING_KEY_SECRET, purpose: 'oidc-signing-key', sealed: row!.private_jwk_sealed, aad: 'another-kid' })).toThrow();
      const other = { db: testDb.db.kysely, clock: new ManualClock(Date.now()), secret: 'another-secret-of-32-characters-or-more' };
      await expect(ensureSigningKey(other)).rejects.toThrow(/SIGNING_KEY_SECRET does not open the signing key/);
    });
  });

  describe('a rotation', () => {
    const t = withListeningApp(dialect);
    /** How far the server's manual clock is ahead of this machine's, for openid-client's checks. */
    const skew = () => Math.round((t.clock.now() - Date.now()) / 1000);

    it('publishes the new key before it signs, keeps the old one until its tokens expire, and every token verifies by the JWK Set', async () => {
      const before = await signIn(await relyingParty(t.origin, 'SIAP004'), { origin: t.origin, scope: SCOPE });
      const oldKid = decodeProtectedHeader(before.tokens.id_token!).kid!;
      expect(await publishedKids(t.origin)).toEqual([oldKid]);

      // The command an operator runs, on the server's database (docs/operations.md, "Signing keys").
      const env = { ...process.env, NODE_ENV: 'test', DATABASE_URL: t.testDb.url, LOG_LEVEL: 'silent' };
      const rotated = await run(process.execPath, ['--import', 'tsx', 'apps/server/src/keys-rotate.ts'], { cwd: REPO_ROOT, env });
      expect(rotated.stdout).toMatch(/^signing key [\w-]{43} published; it signs from /);
      // The command ran on this machine's clock, the server runs on the test's: times are read off the rows.
      const [old, next] = (await listSigningKeys(t.testDb.db.kysely)) as [SigningKeyRow, SigningKeyRow];
      const newKid = next.kid;
      expect(next.active_from - next.created_at).toBe(SIGNING_KEYS.activationDelayMs);
      expect(old).toMatchObject({ kid: oldKid, retire_after: next.active_from, expires_at: next.active_from + SIGNING_KEYS.retentionMs });

      // Within a node's cache the server still answers what it read; then both keys are published, the old one still signs.
      t.clock.advance(SIGNING_KEYS.cacheMs);
      expect(await publishedKids(t.origin)).toEqual([oldKid, newKid]);
      const published = await signIn(await relyingParty(t.origin, 'SIAP004', skew()), { origin: t.origin, scope: SCOPE });
      expect(decodeProtectedHeader(published.tokens.id_token!).kid).toBe(oldKid);

      // From its activation the new key signs: sign-ins and refreshes alike.
      t.clock.advance(next.active_from - t.clock.now());
      const config = await relyingParty(t.origin, 'SIAP004', skew());
      const after = await signIn(config, { origin: t.origin, scope: SCOPE });
      expect(decodeProtectedHeader(after.tokens.id_token!).kid).toBe(newKid);
      const refreshed = await client.refreshTokenGrant(config, published.tokens.refresh_token!);
      expect(decodeProtectedHeader(refreshed.id_token!).kid).toBe(newKid);

      // An ID token signed before the rotation still verifies by the JWK Set as a partner fetches it.
      const jwks = createRemoteJWKSet(new URL(`${t.origin}/api/auth/jwks`));
      const signedBefore = decodeJwt(published.tokens.id_token!);
      const verified = await jwtVerify(published.tokens.id_token!, jwks, { issuer: t.origin, audience: 'SIAP004', currentDate: new Date((signedBefore.iat! + 60) * 1000) });
      expect(verified.protectedHeader.kid).toBe(oldKid);
      expect(await publishedKids(t.origin)).toEqual([oldKid, newKid]);

      // Once every token it signed has expired, the old key is no longer published.
      t.clock.advance(old.expires_at! - t.clock.now());
      expect(await publishedKids(t.origin)).toEqual([newKid]);
      const later = await signIn(await relyingParty(t.origin, 'SIAP004', skew()), { origin: t.origin, scope: SCOPE });
      expect(decodeProtectedHeader(later.tokens.id_token!).kid).toBe(newKid);
    });
  });
});
