import { describe, expect, it } from 'vitest';
import { LIMITS } from '@sso/contracts/constants';
import { revokeFamily } from '../modules/oauth/token-repo.ts';
import { DIALECTS } from '../test-support/test-db.ts';
import { loginTokens, tokenRequest, WEB_REDIRECT, withTestApp } from '../test-support/test-app.ts';
import { purgeExpired } from './maintenance.ts';

const DAY = 24 * 60 * 60 * 1000;
const familyOf = (token: string) => token.split('.')[0]!;

/**
 * The purge of token families that can no longer act (revoked, or whose last refresh token lapsed),
 * a day after that, with their grants, in bounded batches; never a live family, whose rotated grants
 * reuse detection needs (RFC 9700 section 4.14.2; docs/decisions/0002-refresh-retry-grace.md).
 */
describe.each(DIALECTS)('purge of token families (%s)', (dialect) => {
  const t = withTestApp(dialect);
  const db = () => t.testDb.db.kysely;
  const refresh = (refresh_token: string) =>
    tokenRequest(t.app, { grant_type: 'refresh_token', refresh_token, client_id: 'SIAP009', redirect_uri: WEB_REDIRECT, terminal_id: 'terminal-1' });
  const families = async () => (await db().selectFrom('token_families').select('id').execute()).map((r) => r.id).sort();
  const grantsOf = async (familyId: string) =>
    Number((await db().selectFrom('token_grants').select((eb) => eb.fn.countAll().as('n')).where('family_id', '=', familyId).executeTakeFirstOrThrow()).n);

  it('deletes expired and revoked families a day on, with their grants, in batches; a live chain still refreshes and a replay of its rotated token is still reuse', async () => {
    // Two families that end long before the purge: one lapses (no refresh for the refresh token's lifetime), one is revoked.
    const lapsed = familyOf((await loginTokens(t.app)).refresh_token);
    const revokedFirst = await loginTokens(t.app);
    expect((await refresh(revokedFirst.refresh_token)).statusCode).toBe(200);
    const revoked = familyOf(revokedFirst.refresh_token);
    await revokeFamily(db(), revoked, t.clock.now());
    t.clock.advance(LIMITS.refreshTokenTtlMs + DAY + 1);

    // A live chain, rotated hourly for 30 hours (its first grants rotated over a day before the purge),
    // and a family revoked just now (within the day's margin).
    const first = await loginTokens(t.app);
    const live = familyOf(first.refresh_token);
    let current = first;
    for (let i = 0; i < 30; i++) {
      t.clock.advance(60 * 60 * 1000);
      const res = await refresh(current.refresh_token);
      expect(res.statusCode).toBe(200);
      current = res.json();
    }
    const justRevoked = familyOf((await loginTokens(t.app)).refresh_token);
    await revokeFamily(db(), justRevoked, t.clock.now());
    expect(await grantsOf(live)).toBe(31);
    expect(await grantsOf(revoked)).toBe(2);

    // Batches of one row: every kind of row loops until none is left.
    const purged = await purgeExpired(db(), t.clock.now(), { batchSize: 1 });
    expect(await families()).toEqual([live, justRevoked].sort());
    expect(await grantsOf(lapsed)).toBe(0);
    expect(await grantsOf(revoked)).toBe(0);
    expect(await grantsOf(live)).toBe(31);
    expect(purged.token_families).toBe(2);
    expect(purged.token_grants).toBe(3);

    // The latest refresh token still refreshes; the first one, rotated long ago, is a replay: refused, and the family revoked.
    t.clock.advance(10_000);
    const next = await refresh(current.refresh_token);
    expect(next.statusCode).toBe(200);
    const replay = await refresh(first.refresh_token);
    expect(replay.json().error).toBe('invalid_grant');
    expect((await refresh(next.json().refresh_token)).json().error).toBe('invalid_grant');
    const [row] = await db().selectFrom('token_families').select('revoked_at').where('id', '=', live).execute();
    expect(row?.revoked_at).toBe(t.clock.now());

    // A day on, the replayed family goes too.
    await purgeExpired(db(), t.clock.now() + DAY + 1);
    expect(await families()).toEqual([]);
  });

  it('stops at its time budget after one batch of each kind, and the next sweep goes on', async () => {
    const ended = [];
    for (let i = 0; i < 3; i++) ended.push(familyOf((await loginTokens(t.app)).refresh_token));
    for (const id of ended) await revokeFamily(db(), id, t.clock.now());
    const later = t.clock.now() + DAY + 1;
    expect((await purgeExpired(db(), later, { batchSize: 1, budgetMs: 0 })).token_families).toBe(1);
    expect(await families()).toHaveLength(2);
    expect((await purgeExpired(db(), later, { batchSize: 1 })).token_families).toBe(2);
    expect(await families()).toEqual([]);
  });
});
