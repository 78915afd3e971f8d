import { describe, expect, it } from 'vitest';
import { LIMITS } from '@sso/contracts/constants';
import { topSummaryResponseSchema } from '@sso/contracts/top';
import type { PointLedger } from '../../ports/point-ledger.ts';
import { DEMO } from '../../seed.ts';
import { logActivity } from '../activity/activity-repo.ts';
import { DIALECTS } from '../../test-support/test-db.ts';
import { authorizeQuery, bearer, exchange, form, loginTokens, withTestApp, type TestApp } from '../../test-support/test-app.ts';

const CHROME_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const LINE_ANDROID =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8 Build/AP2A.240805.005; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/128.0.6613.127 Mobile Safari/537.36 Line/14.14.0/IAB';

const topOf = (t: TestApp, token: string | undefined) =>
  t.app.inject({ method: 'POST', url: '/api/user/top', payload: {}, headers: token ? bearer(token) : {} });

/** The SPA's login form post from a browser with this User-Agent, exchanged for the session's tokens. */
async function loginFrom(t: TestApp, userAgent: string, user: string, password: string) {
  const login = await t.app.inject({
    method: 'POST',
    url: `/api/auth/authorize?${authorizeQuery()}`,
    ...form({ user_mail: user, user_pass: password, recaptcha_token: 'top' }, { 'user-agent': userAgent }),
  });
  const code = new URL(login.headers.location as string).searchParams.get('code')!;
  return (await exchange(t.app, code)).json() as { access_token: string };
}

describe.each(DIALECTS)('POST /api/user/top (%s)', (dialect) => {
  const t = withTestApp(dialect);

  it('answers 401 with result 300 without a live token', async () => {
    for (const res of [await topOf(t, undefined), await topOf(t, 'not-a-token')]) {
      expect(res.statusCode).toBe(401);
      expect(res.json().result_code).toBe(300);
    }
  });

  it('greets a card member by the cardholder name at the card master, with the cards, the points and the previous login\'s time and device', async () => {
    t.clock.advance(1000);
    await loginFrom(t, CHROME_WINDOWS, DEMO.card.email, DEMO.card.password);
    const previousAt = t.clock.now();
    t.clock.advance(60_000);
    const { access_token } = await loginFrom(t, LINE_ANDROID, DEMO.card.email, DEMO.card.password);
    // A code the session then issued to a partner logs a login too, which is no visit to the ID.
    t.clock.advance(1000);
    await logActivity(t.testDb.db.kysely, { userId: DEMO.card.id, event: 'login', clientId: 'SIAP001', device: 'Safari / iPhone', at: t.clock.now() });

    const res = await topOf(t, access_token);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const body = topSummaryResponseSchema.parse(res.json());
    expect(body).toMatchObject({ result_code: 0, name: '佐藤 太郎' });
    // The demo card member's seeded card (docs/demo.md), as the card list shows it.
    expect(body.cards).toEqual([
      { subuser_id: expect.any(String), card_name: expect.any(String), card_image_url: expect.stringMatching(/^\/content\/cards\//), card_number_mask: '4541-****-****-0101', status: 'active' },
    ]);
    expect(body.points).toEqual({ state: 'read', open: null, card: null });
    // The login before this one, not this one.
    expect(body.previous_login).toEqual({ at: previousAt, device: 'Chrome / Windows' });
  });

  it('greets an open member by the profile name, with the open points; on the first login there is no previous one', async () => {
    const db = t.testDb.db.kysely;
    await db.deleteFrom('activity_log').where('user_id', '=', DEMO.open.id).execute();
    const { access_token } = await loginTokens(t.app, { user: DEMO.open.email });
    const body = topSummaryResponseSchema.parse((await topOf(t, access_token)).json());
    expect(body).toMatchObject({ name: '山田 花子', cards: [], points: { state: 'read', open: 1200, card: null }, previous_login: null });
  });

  it('answers, in the same one request, the member as /api/user does and their attributes as /api/user/attribute does', async () => {
    for (const user of [DEMO.card.email, DEMO.open.email]) {
      const { access_token } = await loginTokens(t.app, { user });
      const base = { result_code: 0, result_message: expect.any(String) };
      const [record, attribute] = await Promise.all(
        ['/api/user', '/api/user/attribute'].map(async (url) => {
          const { result_code, result_message, ...rest } = (await t.app.inject({ method: 'POST', url, payload: {}, headers: bearer(access_token) })).json();
          expect({ result_code, result_message }, url).toEqual(base);
          return rest as Record<string, unknown>;
        }),
      );
      const body = topSummaryResponseSchema.parse((await topOf(t, access_token)).json());
      expect(body.user, user).toEqual(record);
      expect(body.attribute, user).toEqual(attribute);
    }
  });

  it('shows only a token holding every scope of what it shows: the member, the cards, the points and the login history', async () => {
    const all = 'user:read cards:read points:read activity:read';
    const granted = await loginTokens(t.app, { scope: all });
    expect((await topOf(t, granted.access_token)).statusCode).toBe(200);
    for (const scope of ['user:read cards:read points:read', 'account:write', 'openid user:read activity:read']) {
      const { access_token } = await loginTokens(t.app, { scope });
      const res = await topOf(t, access_token);
      expect(res.statusCode, scope).toBe(403);
      expect(res.headers['www-authenticate'], scope).toBe(`Bearer error="insufficient_scope", scope="${all}"`);
      expect(res.json().result_code).toBe(300);
    }
  });

  it('names no one for a card member whose card the card master has no holder name for', async () => {
    const db = t.testDb.db.kysely;
    // A card the card master does not know (removed there since it was added): nothing to greet by.
    await db.updateTable('sub_users').set({ esid: 'ES-UNKNOWN-AT-MASTER' }).where('user_id', '=', DEMO.card.id).execute();
    try {
      const { access_token } = await loginTokens(t.app, { user: DEMO.card.email });
      const body = topSummaryResponseSchema.parse((await topOf(t, access_token)).json());
      expect(body.name).toBeNull();
      expect(body.cards).toHaveLength(1);
    } finally {
      await db.updateTable('sub_users').set({ esid: 'ES0000000001' }).where('user_id', '=', DEMO.card.id).execute();
    }
  });
});

const ledgerDown: PointLedger = {
  balances: () => Promise.reject(new Error('point ledger unreachable')),
  transferOpenToCard: () => Promise.reject(new Error('point ledger unreachable')),
  mergeOpenAccount: () => Promise.reject(new Error('point ledger unreachable')),
};
/** A ledger that never answers: only a wait that gives up keeps Top from hanging with it. */
const ledgerHanging: PointLedger = { ...ledgerDown, balances: () => new Promise(() => {}) };

describe.each(DIALECTS)('POST /api/user/top with the point ledger down or slow (%s)', (dialect) => {
  describe.each([
    ['down', ledgerDown],
    ['hanging', ledgerHanging],
  ] as const)('ledger %s', (_kind, pointLedger) => {
    const t = withTestApp(dialect, {}, { pointLedger });

    it('still answers the name and the cards, well within Top\'s 5 s, with the points unavailable', async () => {
      const { access_token } = await loginTokens(t.app, { user: DEMO.card.email });
      const started = performance.now();
      const res = await topOf(t, access_token);
      const took = performance.now() - started;
      expect(res.statusCode).toBe(200);
      const body = topSummaryResponseSchema.parse(res.json());
      expect(body).toMatchObject({ result_code: 0, name: '佐藤 太郎', points: { state: 'unavailable' } });
      expect(body.cards).toHaveLength(1);
      expect(took).toBeLessThan(LIMITS.topPointsWaitMs + 1500);
      expect(took).toBeLessThan(LIMITS.topRequestTimeoutMs);
    });
  });
});
