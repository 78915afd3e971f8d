import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { LIMITS } from '@sso/contracts/constants';
import { migrateUpTo } from '../../db/migrations.ts';
import { sha256 } from '../../lib/secrets.ts';
import { bearer, withTestApp } from '../../test-support/test-app.ts';
import { DIALECTS } from '../../test-support/test-db.ts';

const FIRST_PARTY = 'openid user:read account:write activity:read cards:read cards:write link:write points:read points:transfer direct_login';

/**
 * Sessions alive at the upgrade to scopes (migration 0009, docs/decisions/0010-scopes-and-audience.md)
 * keep what their client may have from now on: the web app's manage the account, a partner's read the member.
 */
describe.each(DIALECTS)('sessions issued before scopes (%s)', (dialect) => {
  const sessions = ['SIAP009', 'SIAP002'].map((clientId) => {
    const family = `before-scopes-${clientId}`;
    const grant = randomBytes(16).toString('base64url');
    return { clientId, family, grant, access: `${family}.${grant}.${randomBytes(32).toString('base64url')}` };
  });

  const t = withTestApp(dialect, {}, {}, async (db) => {
    await migrateUpTo(db.kysely, '0008-token-selectors');
    const now = Date.now();
    // The demo card member as that release's seed made it (today's seed writes later columns).
    await sql`insert into users (id, email, tel, password_hash, member_type, status, email_flg, created_at, updated_at)
      values ('demo-card-member', 'demo.card@example.com', '09000000001', 'x', 'card', 'active', 0, ${now}, ${now})`.execute(db.kysely);
    for (const s of sessions) {
      await sql`insert into token_families (id, user_id, client_id, terminal_id, scope, created_at, revoked_at)
        values (${s.family}, 'demo-card-member', ${s.clientId}, 'terminal-1', 'openid', ${now}, null)`.execute(db.kysely);
      await sql`insert into token_grants (id, family_id, parent_id, access_hash, refresh_hash, access_expires_at, refresh_expires_at, created_at, rotated_at, revoked_at, hash_lookup)
        values (${s.grant}, ${s.family}, null, ${sha256(s.access)}, ${sha256(`${s.access}-refresh`)},
          ${now + LIMITS.accessTokenTtlMs}, ${now + LIMITS.refreshTokenTtlMs}, ${now}, null, null, 0)`.execute(db.kysely);
    }
  });

  const status = async (url: string, access: string) => (await t.app.inject({ method: 'POST', url, headers: bearer(access) })).statusCode;

  it('gives the web app\'s session every first-party scope and Net Answer in its audience, a partner\'s the member only', async () => {
    const rows = await t.testDb.db.kysely.selectFrom('token_families').select(['client_id', 'scope', 'audience']).orderBy('client_id').execute();
    expect(rows).toEqual([
      { client_id: 'SIAP002', scope: 'openid user:read', audience: 'member-api' },
      { client_id: 'SIAP009', scope: FIRST_PARTY, audience: 'member-api SIAP004' },
    ]);
    const [web, partner] = sessions as [(typeof sessions)[0], (typeof sessions)[0]];
    expect(await status('/api/subuser/cards', web.access)).toBe(200);
    expect(await status('/api/user', partner.access)).toBe(200);
    expect(await status('/api/subuser/cards', partner.access)).toBe(403);
    expect(await status('/api/auth/user_onetime_token', partner.access)).toBe(403);
  });
});
