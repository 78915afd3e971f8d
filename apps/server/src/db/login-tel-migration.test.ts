import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { TERM_VERSIONS, isTermKey } from '@sso/contracts/terms';
import { hashPassword } from '../lib/passwords.ts';
import { recordTermAcceptance } from '../modules/account/user-repo.ts';
import { loginCheck } from '../test-support/account-change-kit.ts';
import { bearer, loginTokens, withTestApp } from '../test-support/test-app.ts';
import { DIALECTS } from '../test-support/test-db.ts';
import { migrateUpTo } from './migrations.ts';

/**
 * Members from before migration 0013 (docs/decisions/0014-proof-where-accounts-join.md): every
 * login number stays a login id, so that they log in as they did; an open member's phone becomes
 * the profile's phone as well.
 */
describe.each(DIALECTS)('the upgrade to migration 0013 (%s)', (dialect) => {
  const t = withTestApp(dialect, {}, {}, async (db) => {
    await migrateUpTo(db.kysely, '0008-token-selectors');
    const hash = await hashPassword('Before-0013');
    const now = Date.now();
    for (const [id, type, tel] of [['old-open', 'open', '07011110013'], ['old-card', 'card', '07022220013']] as const) {
      await sql`insert into users (id, email, tel, password_hash, member_type, status, last_name_kana, email_flg, created_at, updated_at)
        values (${id}, ${`${id}@example.com`}, ${tel}, ${hash}, ${type}, 'active', ${type === 'open' ? 'ムカシ' : null}, 0, ${now}, ${now})`.execute(db.kysely);
      for (const key of ['ServiceOnMemberId', 'PersonalInfoOnMemberId'].filter(isTermKey)) await recordTermAcceptance(db.kysely, id, key, TERM_VERSIONS[key], now);
    }
  });

  it("keeps every member's login number and copies an open member's to the profile", async () => {
    const rows = await t.testDb.db.kysely.selectFrom('users').select(['id', 'tel', 'profile_tel']).where('id', 'like', 'old-%').orderBy('id').execute();
    expect(rows).toEqual([
      { id: 'old-card', tel: '07022220013', profile_tel: null },
      { id: 'old-open', tel: '07011110013', profile_tel: '07011110013' },
    ]);
    for (const tel of ['07011110013', '07022220013']) expect(await loginCheck(t, tel, 'Before-0013')).toBe(0);
    const open = await loginTokens(t.app, { user: '07011110013', password: 'Before-0013' });
    const me = (await t.app.inject({ method: 'POST', url: '/api/user', headers: bearer(open.access_token) })).json();
    expect(me).toMatchObject({ user_id: 'old-open', login_tel: '070-****-0013', user_profile: { tel: '07011110013' } });
  });
});
