import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateToLatest } from '../../db/migrations.ts';
import type { Database } from '../../db/schema.ts';
import { newId } from '../../lib/secrets.ts';
import { DEMO } from '../../seed.ts';
import { withTestApp } from '../../test-support/test-app.ts';
import { DIALECTS } from '../../test-support/test-db.ts';
import {
  findGrant,
  findLegacyGrant,
  insertFamily,
  insertGrant,
  markRotated,
  revokeFamily,
  revokeUserFamilies,
  rotateGrant,
  supersedeChildren,
  type GrantRow,
} from './token-repo.ts';

/**
 * The token statements as SQLite plans them (decision 0009): each refresh, introspection and
 * revocation must find its grants through an index, never by reading the whole token_grants table,
 * which holds a row per refresh ever made. The statements are the repository's own, captured as
 * they run.
 */
describe('token grant statements use an index (sqlite)', () => {
  const file = join(tmpdir(), `sso-token-plans-${newId()}.db`);
  const sqlite = new SQLite(file);
  // Plans do not depend on the rows: a family without its member is enough.
  sqlite.pragma('foreign_keys = OFF');
  const statements: { sql: string; parameters: readonly unknown[] }[] = [];
  const db = new Kysely<Database>({
    dialect: new SqliteDialect({ database: sqlite }),
    log: (event) => {
      if (event.level === 'query') statements.push({ sql: event.query.sql, parameters: event.query.parameters });
    },
  });
  const familyId = newId();
  const grantId = newId();

  beforeAll(async () => {
    await migrateToLatest(db);
    await insertFamily(db, { id: familyId, user_id: 'u1', client_id: 'SIAP009', terminal_id: null, scope: 'openid', audience: 'member-api', created_at: 1, revoked_at: null, proved_at: null, auth_time: null, amr: null, sso_session_id: null, subject: null });
    statements.length = 0;
  });
  afterAll(async () => {
    await db.destroy();
    for (const suffix of ['', '-wal', '-shm']) rmSync(file + suffix, { force: true });
  });

  const plan = (s: { sql: string; parameters: readonly unknown[] }): string[] =>
    (sqlite.prepare(`explain query plan ${s.sql}`).all(...(s.parameters as unknown[])) as { detail: string }[]).map((r) => r.detail);

  it.each([
    ['the lookup of a token by its selector', () => findGrant(db, { family_id: familyId, id: grantId })],
    ['the lookup of a token issued before selectors, by its hash', () => findLegacyGrant(db, 'a'.repeat(64))],
    ['the rotation', () => markRotated(db, { family_id: familyId, id: grantId }, 2)],
    ['the grace retry superseding unused children', () => supersedeChildren(db, { id: grantId, family_id: familyId }, 2)],
    ['the revocation of a family', () => revokeFamily(db, familyId, 2)],
    ['the revocation of every session of a member', () => revokeUserFamilies(db, 'u1', 2)],
  ])('%s', async (_name, run) => {
    statements.length = 0;
    await run();
    const grantStatements = statements.filter((s) => s.sql.includes('"token_grants"'));
    expect(grantStatements.length).toBeGreaterThan(0);
    for (const s of grantStatements) {
      const details = plan(s);
      expect(details.filter((d) => /\bSCAN (g|token_grants)\b/.test(d)), `${s.sql}\n${details.join('\n')}`).toEqual([]);
    }
  });

  // The partial indexes hold only the pairs issued before selectors. Their condition is written into
  // the statement as a constant: a statement compiled once with it as a parameter is planned without
  // knowing its value (PostgreSQL's generic plan cannot use a partial index for it).
  it('finds a token issued before selectors through the partial index of its kind', async () => {
    statements.length = 0;
    await findLegacyGrant(db, 'a'.repeat(64));
    const lookups = statements.filter((s) => s.sql.includes('"token_grants"'));
    for (const s of lookups) expect(s.sql).toMatch(/"g"\."hash_lookup" = 1\b/);
    expect(lookups.map((s) => plan(s).find((d) => /\bg\b/.test(d)))).toEqual([
      expect.stringContaining('USING INDEX token_grants_legacy_access_hash'),
      expect.stringContaining('USING INDEX token_grants_legacy_refresh_hash'),
    ]);
  });
});

/** The refresh's write (rotateGrant): one statement on PostgreSQL, a transaction on SQLite; the same outcome. */
describe.each(DIALECTS)('rotating a grant and writing its child (%s)', (dialect) => {
  const t = withTestApp(dialect);
  const grant = (familyId: string, parentId: string | null, at: number, jkt: string | null = null): GrantRow => ({
    id: newId(),
    family_id: familyId,
    parent_id: parentId,
    access_hash: `a${newId()}`,
    refresh_hash: `r${newId()}`,
    access_expires_at: at + 1_000,
    refresh_expires_at: at + 2_000,
    created_at: at,
    rotated_at: null,
    revoked_at: null,
    hash_lookup: 0,
    dpop_jkt: jkt,
  });
  /** A family of the demo member with its first grant. */
  const family = async () => {
    const db = t.testDb.db.kysely;
    const id = newId();
    await insertFamily(db, { id, user_id: DEMO.card.id, client_id: 'SIAP009', terminal_id: null, scope: 'user:read', audience: 'member-api', created_at: 1, revoked_at: null, proved_at: null, auth_time: null, amr: null, sso_session_id: null, subject: null });
    const first = grant(id, null, 1);
    await insertGrant(db, first);
    return first;
  };
  const grantsOf = async (familyId: string) =>
    (await t.testDb.db.kysely.selectFrom('token_grants').selectAll().where('family_id', '=', familyId).orderBy('created_at').execute()).map((r) => ({
      ...r,
      created_at: Number(r.created_at),
      rotated_at: r.rotated_at === null ? null : Number(r.rotated_at),
      access_expires_at: Number(r.access_expires_at),
      refresh_expires_at: Number(r.refresh_expires_at),
      hash_lookup: Number(r.hash_lookup),
    }));

  it('marks a live grant rotated and writes the child as given', async () => {
    const parent = await family();
    const child = grant(parent.family_id, parent.id, 5);
    expect(await rotateGrant(t.testDb.db.kysely, parent, child, 5)).toBe(true);
    expect(await grantsOf(parent.family_id)).toEqual([{ ...parent, rotated_at: 5 }, child]);
  });

  it("writes the child's DPoP key (RFC 9449) as given", async () => {
    const parent = await family();
    const child = grant(parent.family_id, parent.id, 5, 'x'.repeat(43));
    expect(await rotateGrant(t.testDb.db.kysely, parent, child, 5)).toBe(true);
    expect((await grantsOf(parent.family_id)).map((g) => g.dpop_jkt)).toEqual([null, 'x'.repeat(43)]);
  });

  it('writes nothing for a grant already rotated or revoked', async () => {
    const db = t.testDb.db.kysely;
    const parent = await family();
    const child = grant(parent.family_id, parent.id, 5);
    await rotateGrant(db, parent, child, 5);
    expect(await rotateGrant(db, parent, grant(parent.family_id, parent.id, 6), 6)).toBe(false);
    await revokeFamily(db, parent.family_id, 7);
    expect(await rotateGrant(db, child, grant(parent.family_id, child.id, 8), 8)).toBe(false);
    expect((await grantsOf(parent.family_id)).map((g) => [g.id, g.rotated_at])).toEqual([
      [parent.id, 5],
      [child.id, null],
    ]);
  });

  it('lets one of two concurrent rotations of a grant win, and only its child is written', async () => {
    const db = t.testDb.db.kysely;
    const parent = await family();
    const children = [grant(parent.family_id, parent.id, 5), grant(parent.family_id, parent.id, 5)];
    const won = await Promise.all(children.map((c) => rotateGrant(db, parent, c, 5)));
    expect(won.filter(Boolean)).toHaveLength(1);
    const winner = children[won.indexOf(true)];
    expect((await grantsOf(parent.family_id)).map((g) => g.id)).toEqual([parent.id, winner?.id]);
  });
});
