import { describe, expect, it } from 'vitest';
import { profileResponseSchema } from '@sso/contracts/account';
import { LIMITS } from '@sso/contracts/constants';
import { userResponseSchema } from '@sso/contracts/user';
import { DEMO } from '../../seed.ts';
import { DIALECTS } from '../../test-support/test-db.ts';
import { bearer, form, loginTokens, withTestApp } from '../../test-support/test-app.ts';
import { loginCheck } from '../../test-support/account-change-kit.ts';

const OK = { result_code: 0, result_message: '正常に処理しました。' };
const NOT_OPEN = { result_code: 300, result_message: 'プロフィールの変更はオープン会員の方のみご利用いただけます。' };

/** The demo open member's profile as seeded, as the SPA posts it back. */
const SEEDED = {
  last_name: '山田',
  first_name: '花子',
  last_name_kana: 'ヤマダ',
  first_name_kana: 'ハナコ',
  sex: '2',
  birthday: '19900101',
  tel: DEMO.open.tel,
  postal_code: '1700013',
  email_flg: false,
};

describe.each(DIALECTS)('POST /api/user/profile and /api/user/profile/change (%s)', (dialect) => {
  const t = withTestApp(dialect);
  const db = () => t.testDb.db.kysely;

  const post = (url: string, token: string | undefined, payload: object = {}, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'POST', url, payload, headers: { ...(token ? bearer(token) : {}), ...headers } });
  const openToken = async () => (await loginTokens(t.app, { user: DEMO.open.email })).access_token;
  const change = (token: string, over: Record<string, unknown> = {}) => post('/api/user/profile/change', token, { ...SEEDED, dry_run: 1, ...over });
  const openRow = () => db().selectFrom('users').selectAll().where('id', '=', DEMO.open.id).executeTakeFirstOrThrow();
  const profileChanges = () =>
    db().selectFrom('activity_log').select(['event', 'detail']).where('user_id', '=', DEMO.open.id).where('event', '=', 'profile_changed').execute();

  describe.each(['/api/user/profile', '/api/user/profile/change'])('%s', (url) => {
    it('answers 401 with result 300 without a token, with an expired one and with a revoked one', async () => {
      const body = { ...SEEDED, dry_run: 1 };
      for (const res of [await post(url, undefined, body), await post(url, 'not-a-token', body)]) {
        expect(res.statusCode).toBe(401);
        expect(res.json().result_code).toBe(300);
      }
      const expiring = await openToken();
      expect((await post(url, expiring, body)).statusCode).toBe(200);
      t.clock.advance(LIMITS.accessTokenTtlMs + 1);
      expect((await post(url, expiring, body)).statusCode).toBe(401);

      const revoked = await openToken();
      const revoke = await t.app.inject({ method: 'POST', url: '/api/auth/revoke', ...form({ token: revoked, client_id: 'SIAP009' }) });
      expect(revoke.statusCode).toBe(200);
      const res = await post(url, revoked, body);
      expect(res.statusCode).toBe(401);
      expect(res.json().result_code).toBe(300);
    });

    it('answers 300 to a card member', async () => {
      const { access_token } = await loginTokens(t.app);
      const res = await post(url, access_token, { ...SEEDED, dry_run: 0 });
      expect(res.json()).toEqual(NOT_OPEN);
    });
  });

  it('answers the open member their profile with birthday read-only, also in POST /api/user', async () => {
    const token = await openToken();
    const res = await post('/api/user/profile', token);
    expect(res.statusCode).toBe(200);
    const profile = { auth_source: 'open', ...SEEDED, readonly: ['birthday'] };
    expect(profileResponseSchema.parse(res.json())).toEqual({ ...OK, ...profile });
    expect(res.headers['cache-control']).toBe('no-store');
    const userRes = await post('/api/user', token);
    expect(userRes.headers['cache-control']).toBe('no-store');
    const user = userResponseSchema.parse(userRes.json());
    expect(user.user_profile).toEqual(profile);
  });

  it('gives no user_profile to a card member in POST /api/user', async () => {
    const { access_token } = await loginTokens(t.app);
    const user = (await post('/api/user', access_token)).json();
    expect(user).toMatchObject({ result_code: 0, user_id: DEMO.card.id });
    expect(user).not.toHaveProperty('user_profile');
  });

  it('checks every field rule with its Japanese message (SPEC.md section 5)', async () => {
    const token = await openToken();
    const cases: Array<[Record<string, unknown>, string, string]> = [
      // The stored name is 山田 花子, ヤマダ ハナコ: a part is counted with the other (SPEC.md section 5, full_name and full_name_kana).
      [{ last_name: '山'.repeat(18) }, 'full_name', 'お名前は姓と名をあわせて19文字以内で入力してください'],
      [{ first_name_kana: 'ア'.repeat(17) }, 'full_name_kana', 'フリガナはセイとメイをあわせて19文字以内で入力してください'],
      [{ first_name: 'ﾊﾅｺ' }, 'first_name', '全角で入力してください'],
      [{ last_name: 'Yamada' }, 'last_name', '全角で入力してください'],
      [{ last_name_kana: 'ﾔﾏﾀﾞ' }, 'last_name_kana', '全角カタカナで入力してください'],
      [{ first_name_kana: 'はなこ' }, 'first_name_kana', '全角カタカナで入力してください'],
      [{ last_name: '' }, 'last_name', '入力してください'],
      [{ sex: '3' }, 'sex', '性別を選択してください'],
      [{ tel: '090000000' }, 'tel', '10桁または11桁の半角数字で入力してください（ハイフン不要）'],
      [{ tel: '090000000012' }, 'tel', '10桁または11桁の半角数字で入力してください（ハイフン不要）'],
      [{ tel: '090-0000-0002' }, 'tel', 'すべて半角数字で入力してください'],
      [{ postal_code: '170001' }, 'postal_code', '7桁の半角数字で入力してください（ハイフン不要）'],
      [{ email_flg: 'yes' }, 'email_flg', 'メールマガジンの受け取りを選択してください'],
      [{ birthday: '1990011' }, 'birthday', '8桁で入力してください'],
      [{ dry_run: 2 }, 'dry_run', '入力してください'],
    ];
    for (const [over, key, message] of cases) {
      const res = await change(token, over);
      expect(res.statusCode, JSON.stringify(over)).toBe(400);
      expect(res.json().result_code).toBe(901);
      expect(res.json().validation_errors, JSON.stringify(over)).toEqual([{ key, message }]);
    }
    // The 19-character limit of the whole name is inclusive.
    expect((await change(token, { last_name: '山'.repeat(17), first_name_kana: 'ア'.repeat(16) })).json()).toEqual(OK);
    expect(await openRow()).toMatchObject({ last_name: '山田', first_name_kana: 'ハナコ' });
  });

  it('refuses a changed read-only birthday and accepts it sent unchanged', async () => {
    const token = await openToken();
    const res = await change(token, { birthday: '19900102', dry_run: 0 });
    expect(res.json()).toMatchObject({ result_code: 901, validation_errors: [{ key: 'birthday', message: 'この項目は変更できません。' }] });
    expect((await openRow()).birthday).toBe('19900101');
    expect((await change(token, { birthday: '19900101' })).json()).toEqual(OK);
  });

  it('changes nothing on a dry run, and changes the row and logs once on a real change', async () => {
    const token = await openToken();
    const next = { last_name: '佐藤', first_name: '美咲', last_name_kana: 'サトウ', first_name_kana: 'ミサキ', sex: '1', tel: '08012345678', postal_code: '1000001', email_flg: true };
    const before = await openRow();
    expect((await change(token, { ...next, dry_run: 1 })).json()).toEqual(OK);
    expect(await openRow()).toEqual(before);
    expect(await profileChanges()).toEqual([]);

    t.clock.advance(1000);
    const res = await change(token, { ...next, dry_run: 0 });
    expect(res.json()).toEqual(OK);
    const { tel, ...rest } = next;
    expect(await openRow()).toMatchObject({ ...rest, profile_tel: tel, email_flg: 1, birthday: '19900101', updated_at: t.clock.now() });
    expect(await profileChanges()).toHaveLength(1);
    const profile = (await post('/api/user/profile', token)).json();
    expect(profile).toMatchObject({ ...next, birthday: '19900101' });
    // The profile's phone is no login id (decision 0014): the login number stays as it was.
    expect(await loginCheck(t, next.tel, DEMO.open.password)).toBe(200);
    expect(await loginCheck(t, DEMO.open.tel, DEMO.open.password)).toBe(0);
  });

  it('stores the device of the request with the change', async () => {
    const token = await openToken();
    const chrome = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
    const current = await post('/api/user/profile', token);
    const { result_code: _c, result_message: _m, auth_source: _a, readonly: _r, ...fields } = current.json();
    const res = await post('/api/user/profile/change', token, { ...fields, postal_code: '1000002', dry_run: 0 }, { 'user-agent': chrome });
    expect(res.json()).toEqual(OK);
    const rows = await profileChanges();
    expect(rows).toHaveLength(2);
    expect(rows.map((r) => r.detail)).toContain(JSON.stringify({ device: 'Chrome / Windows', address: '127.0.0.1' }));
  });

  it("answers another member's login number exactly as a free one, and makes neither a login id (decision 0014)", async () => {
    const token = await openToken();
    const bodies: string[] = [];
    for (const tel of [DEMO.card.tel, '08099990001']) {
      for (const dry_run of [1, 0]) {
        const res = await change(token, { tel, dry_run });
        expect(res.statusCode).toBe(200);
        bodies.push(res.body);
      }
      expect(await openRow()).toMatchObject({ profile_tel: tel, tel: DEMO.open.tel });
    }
    expect(new Set(bodies)).toEqual(new Set([JSON.stringify(OK)]));
    // The card member keeps their login number; the profile's phone logs nobody in.
    expect(await loginCheck(t, DEMO.card.tel, DEMO.card.password)).toBe(0);
    expect(await loginCheck(t, '08099990001', DEMO.open.password)).toBe(200);
    expect(await loginCheck(t, DEMO.open.tel, DEMO.open.password)).toBe(0);
    // Only the read-only rule is reported.
    const both = await change(token, { tel: DEMO.card.tel, birthday: '19900102' });
    expect(both.json().validation_errors.map((e: { key: string }) => e.key)).toEqual(['birthday']);
  });
});
