import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { LIMITS } from '@sso/contracts/constants';
import { migrateUpTo } from '../../db/migrations.ts';
import { sha256 } from '../../lib/secrets.ts';
import { DIALECTS } from '../../test-support/test-db.ts';
import { bearer, introspectToken, tokenRequest, withTestApp } from '../../test-support/test-app.ts';
import { subjectFor } from '../oidc/subject.ts';

/**
 * Tokens issued before tokens named their grant (migration 0008, docs/decisions/0009-token-selectors.md)
 * keep working after the upgrade until they end as any token does: members stay logged in.
 */
describe.each(DIALECTS)('tokens issued before migration 0008 (%s)', (dialect) => {
  const legacy = [1, 2].map((n) => ({
    terminal: `terminal-legacy-${n}`,
    access: randomBytes(32).toString('base64url'),
    refresh: randomBytes(32).toString('base64url'),
  }));

  // The database as the release before left it: the schema up to 0007, the demo member, and a
  // session per terminal whose tokens are stored only as their SHA-256.
  const t = withTestApp(dialect, {}, {}, async (db) => {
    await migrateUpTo(db.kysely, '0007-token-grant-indexes');
    const now = Date.now();
    // The demo card member as that release's seed made it (today's seed writes later columns).
    await sql`insert into users (id, email, tel, password_hash, member_type, status, email_flg, created_at, updated_at)
      values ('demo-card-member', 'demo.card@example.com', '09000000001', 'x', 'card', 'active', 0, ${now}, ${now})`.execute(db.kysely);
    for (const [i, s] of legacy.entries()) {
      await sql`insert into token_families (id, user_id, client_id, terminal_id, scope, created_at, revoked_at)
        values (${`legacy-family-${i}`}, 'demo-card-member', 'SIAP009', ${s.terminal}, 'openid', ${now}, null)`.execute(db.kysely);
      await sql`insert into token_grants (id, family_id, parent_id, access_hash, refresh_hash, access_expires_at, refresh_expires_at, created_at, rotated_at, revoked_at)
        values (${`legacy-grant-${i}`}, ${`legacy-family-${i}`}, null, ${sha256(s.access)}, ${sha256(s.refresh)},
          ${now + LIMITS.accessTokenTtlMs}, ${now + LIMITS.refreshTokenTtlMs}, ${now}, null, null)`.execute(db.kysely);
    }
  });

  const userStatus = async (access: string) => (await t.app.inject({ method: 'POST', url: '/api/user', headers: bearer(access) })).statusCode;
  const introspect = (token: string) => introspectToken(t.app, token);
  const refresh = (refresh_token: string, terminal_id: string) =>
    tokenRequest(t.app, { grant_type: 'refresh_token', refresh_token, client_id: 'SIAP009', terminal_id });

  it('marks the rows that existed for lookup by hash, and no other', async () => {
    const rows = await t.testDb.db.kysely.selectFrom('token_grants').select(['id', 'hash_lookup']).orderBy('id').execute();
    expect(rows).toEqual([
      { id: 'legacy-grant-0', hash_lookup: 1 },
      { id: 'legacy-grant-1', hash_lookup: 1 },
    ]);
  });

  it('answers the old access token on the API and at introspection, and refuses it as a refresh token', async () => {
    const [s] = legacy as [(typeof legacy)[0]];
    expect(await userStatus(s.access)).toBe(200);
    const sub = subjectFor({ client_id: 'SIAP004' }, 'demo-card-member');
    expect(await introspect(s.access)).toMatchObject({ active: true, sub, token_type: 'Bearer', terminal_id: s.terminal });
    expect(await introspect(s.refresh)).toMatchObject({ active: true, token_type: 'refresh_token' });
    expect((await refresh(s.access, s.terminal)).json().error).toBe('invalid_grant');
    expect(await userStatus(s.refresh)).toBe(401);
  });

  it('rotates an old refresh token into a pair that names its grant, and a replay of the old one still ends the session', async () => {
    const [, s] = legacy as [unknown, (typeof legacy)[0]];
    const res = await refresh(s.refresh, s.terminal);
    expect(res.statusCode).toBe(200);
    const next = res.json() as { access_token: string; refresh_token: string };
    // The new pair stays in the old session's family, whose id is the old kind.
    expect(next.refresh_token).toMatch(/^legacy-family-1\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}$/);
    expect(await userStatus(next.access_token)).toBe(200);
    expect(await introspect(s.refresh)).toEqual({ active: false });
    const [family, id] = next.refresh_token.split('.') as [string, string];
    const row = await t.testDb.db.kysely.selectFrom('token_grants').select(['parent_id', 'hash_lookup']).where('family_id', '=', family).where('id', '=', id).executeTakeFirst();
    expect(row).toEqual({ parent_id: 'legacy-grant-1', hash_lookup: 0 });

    t.clock.advance(LIMITS.refreshRetryGraceMs + 1);
    expect((await refresh(s.refresh, s.terminal)).json().error).toBe('invalid_grant');
    expect(await userStatus(next.access_token)).toBe(401);
    expect((await refresh(next.refresh_token, s.terminal)).json().error).toBe('invalid_grant');
  });
});
