import { describe, expect, it } from 'vitest';
import { linkOpenResponseSchema } from '@sso/contracts/points';
import { userAttributeResponseSchema } from '@sso/contracts/user';
import { loginTokens, withTestApp, type TestApp } from '../../test-support/test-app.ts';
import { DIALECTS } from '../../test-support/test-db.ts';
import { aqf, call, eventRows, expectSessionDead, loginCheck, OK, pointMember } from '../../test-support/points-kit.ts';

const MINUTE = 60_000;
const NOT_MATCHED = { result_code: 902, result_message: 'ご入力の情報に一致するオープン会員が見つかりません。ご入力内容をご確認ください。' };
const LOCKED = { result_code: 203, result_message: '入力回数の上限を超えたため、しばらくの間連携できません。時間をおいて再度お試しください。' };
const ALREADY = { result_code: 902, result_message: '既にオープン会員の情報と連携済みです。' };
const CARD_ONLY = { result_code: 300, result_message: 'オープン会員の連携はカード会員の方のみご利用いただけます。' };

/** What test-support/recover-kit.ts gives every open member it makes, but the e-mail, phone and password. */
const detailsOf = (m: { email: string; tel: string; password: string }) => ({
  email: m.email,
  last_name_kana: 'サトウ',
  first_name_kana: 'ハナコ',
  birthday: '19900101',
  tel: m.tel,
  password: m.password,
});

const link = (t: TestApp, access: string | undefined, body: unknown) => call(t, '/api/link/open', access, body);
const cardMember = (t: TestApp) => pointMember(t, { card: true, openPoints: null, cards: [{}] });

describe.each(DIALECTS)('open-account link (%s)', (dialect) => {
  const t = withTestApp(dialect);
  const db = () => t.testDb.db.kysely;

  it('moves the demo open member\'s points to the demo card member and ends the open login', async () => {
    const card = await loginTokens(t.app, { user: 'demo.card@example.com', password: 'Demo1234' });
    const open = await loginTokens(t.app, { user: 'demo.open@example.com', password: 'Demo1234' });
    // Mixed case and full details as the demo's README gives them.
    const res = await link(t, card.access_token, {
      email: 'Demo.Open@example.com',
      last_name_kana: 'ヤマダ',
      first_name_kana: 'ハナコ',
      birthday: '19900101',
      tel: '09000000002',
      password: 'Demo1234',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(linkOpenResponseSchema.parse(res.json())).toEqual({ ...OK, aqf_point_open: 1200 });
    expect(await aqf(t, card.access_token)).toEqual({ ...OK, is_na_point: true, is_open_point: true, aqf_point_na: 0, aqf_point_open: 1200 });
    await expectSessionDead(t, open);
    expect(await loginCheck(t, 'demo.open@example.com', 'Demo1234')).toBe(200);
    expect(await loginCheck(t, '09000000002', 'Demo1234')).toBe(200);
    // The card member stays a card member, who now also holds open points.
    const attribute = userAttributeResponseSchema.parse((await call(t, '/api/user/attribute', card.access_token)).json());
    expect(attribute).toMatchObject({ is_user_open: false, is_user_saison_card: true, is_user_saison_aqf: true });
    expect(await eventRows(t, 'demo-card-member', 'open_link_failed')).toEqual([]);
    for (const userId of ['demo-card-member', 'demo-open-member']) {
      expect(await eventRows(t, userId, 'open_linked')).toEqual([{ event: 'open_linked', detail: JSON.stringify({ device: 'Chrome / Windows', address: '127.0.0.1' }) }]);
    }
    expect(await eventRows(t, 'demo-open-member', 'withdrawn')).toHaveLength(1);
    expect(await eventRows(t, 'demo-card-member', 'withdrawn')).toEqual([]);
    const row = await db().selectFrom('users').select(['status', 'email']).where('id', '=', 'demo-open-member').executeTakeFirstOrThrow();
    expect(row).toEqual({ status: 'withdrawn', email: 'demo-open-member@withdrawn.invalid' });
    // Once linked, a second link is refused before anything is compared.
    const other = await pointMember(t, { openPoints: 10 });
    expect((await link(t, card.access_token, detailsOf(other))).json()).toEqual(ALREADY);
    expect(await aqf(t, other.access_token)).toMatchObject({ aqf_point_open: 10 });
  });

  it('answers a mismatch of any single field exactly as an unknown e-mail or a wrong password, and moves nothing', async () => {
    const open = await pointMember(t, { openPoints: 300 });
    const withdrawn = await pointMember(t, { openPoints: 5 });
    await db().updateTable('users').set({ status: 'withdrawn' }).where('id', '=', withdrawn.id).execute();
    const right = detailsOf(open);
    const wrongs = [
      { ...right, email: 'nobody.here@example.com' },
      { ...right, last_name_kana: 'スズキ' },
      { ...right, first_name_kana: 'ハナエ' },
      { ...right, birthday: '19900102' },
      { ...right, tel: '07099999999' },
      detailsOf(withdrawn),
      { ...right, password: 'Wrong-pass1' },
      // A card member's own e-mail and password: only an open account can be linked.
      { ...right, email: 'demo.card@example.com', password: 'Demo1234' },
      { ...right, email: 'nobody.here@example.com', password: 'Wrong-pass1' },
    ];
    const bodies: string[] = [];
    // Three tries per card member keep each under the lock.
    const members = [await cardMember(t), await cardMember(t), await cardMember(t)];
    for (const [i, wrong] of wrongs.entries()) {
      const res = await link(t, members[Math.floor(i / 3)]!.access_token, wrong);
      expect(res.statusCode).toBe(400);
      expect(res.json(), JSON.stringify(wrong)).toEqual(NOT_MATCHED);
      bodies.push(res.body);
    }
    expect(new Set(bodies).size).toBe(1);
    expect(await aqf(t, open.access_token)).toMatchObject({ aqf_point_open: 300 });
    expect(await loginCheck(t, open.email, open.password)).toBe(0);
    // Every failure is in the log of the card member who tried.
    for (const m of members) expect(await eventRows(t, m.id, 'open_link_failed')).toHaveLength(3);
  });

  it('no longer links on profile data alone: the open account\'s password is required (decision 0014)', async () => {
    const open = await pointMember(t, { openPoints: 70 });
    const member = await cardMember(t);
    const { password: _password, ...profileOnly } = detailsOf(open);
    for (const body of [profileOnly, { ...profileOnly, password: '' }]) {
      const res = await link(t, member.access_token, body);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ result_code: 901, validation_errors: [{ key: 'password', message: '入力してください' }] });
    }
    // Any other password is no proof of the open account.
    expect((await link(t, member.access_token, { ...profileOnly, password: 'Other-pass1' })).json()).toEqual(NOT_MATCHED);
    expect(await aqf(t, open.access_token)).toMatchObject({ aqf_point_open: 70 });
    expect((await link(t, member.access_token, detailsOf(open))).json()).toEqual({ ...OK, aqf_point_open: 70 });
  });

  it('refuses a kana name over 19 characters as a whole with 901 keyed full_name_kana (SPEC.md section 5)', async () => {
    const member = await cardMember(t);
    const res = await link(t, member.access_token, { ...detailsOf(await pointMember(t, { openPoints: 1 })), last_name_kana: 'ヤ'.repeat(10), first_name_kana: 'マ'.repeat(10) });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      result_code: 901,
      validation_errors: [{ key: 'full_name_kana', message: 'フリガナはセイとメイをあわせて19文字以内で入力してください' }],
    });
  });

  it('counts a wrong password on the open account\'s login throttle, as a login would, and logs it for its owner', async () => {
    const open = await pointMember(t, { openPoints: 90 });
    const wrong = { ...detailsOf(open), password: 'Wrong-pass1' };
    // 9 failed logins, then one wrong password at the link by each of two card members: the tenth locks the open account.
    for (let i = 0; i < 8; i++) expect(await loginCheck(t, open.email, `Wrong-pass${i}`)).toBe(200);
    const [first, second] = [await cardMember(t), await cardMember(t)];
    expect((await link(t, first.access_token, wrong)).json()).toEqual(NOT_MATCHED);
    expect((await link(t, second.access_token, wrong)).json()).toEqual(LOCKED);
    expect(await loginCheck(t, open.email, open.password)).toBe(203);
    // While the open account is locked, even the right password does not link it; nor by a fresh member.
    expect((await link(t, (await cardMember(t)).access_token, detailsOf(open))).json()).toEqual(LOCKED);
    await expect.poll(async () => (await eventRows(t, open.id, 'login_failed')).length).toBe(10);
    expect(await eventRows(t, open.id, 'login_locked')).toHaveLength(1);
    expect(await aqf(t, open.access_token)).toMatchObject({ aqf_point_open: 90 });

    t.clock.advance(30 * MINUTE + 1);
    expect((await link(t, second.access_token, detailsOf(open))).json()).toEqual({ ...OK, aqf_point_open: 90 });
  });

  it('locks the member\'s link at the fifth failed match for 30 minutes, and logs it', async () => {
    const member = await cardMember(t);
    const open = await pointMember(t, { openPoints: 450 });
    const wrong = { ...detailsOf(open), birthday: '19800101' };
    for (let i = 0; i < 4; i++) expect((await link(t, member.access_token, wrong)).json()).toEqual(NOT_MATCHED);
    expect((await link(t, member.access_token, wrong)).json()).toEqual(LOCKED);
    expect((await link(t, member.access_token, detailsOf(open))).json()).toEqual(LOCKED);
    expect(await eventRows(t, member.id, 'open_link_locked')).toHaveLength(1);
    expect(await aqf(t, open.access_token)).toMatchObject({ aqf_point_open: 450 });

    t.clock.advance(30 * MINUTE + 1);
    expect((await link(t, member.access_token, detailsOf(open))).json()).toEqual({ ...OK, aqf_point_open: 450 });
  });

  it('links an open account once when asked in parallel, by the same or another card member', async () => {
    const open = await pointMember(t, { openPoints: 640 });
    const first = await cardMember(t);
    const second = await cardMember(t);
    const answers = await Promise.all([first, first, second, second].map((m) => link(t, m.access_token, detailsOf(open))));
    const codes = answers.map((a) => a.json().result_code as number);
    expect(codes.filter((c) => c === 0)).toHaveLength(1);
    expect(codes.filter((c) => c !== 0).every((c) => c === 902)).toBe(true);
    const [a, b] = [await aqf(t, first.access_token), await aqf(t, second.access_token)];
    // The points went to one member, once; the other has no open account at all.
    expect([a.aqf_point_open + b.aqf_point_open, [a.is_open_point, b.is_open_point].filter(Boolean).length]).toEqual([640, 1]);
    expect(await eventRows(t, open.id, 'open_linked')).toHaveLength(1);
  });

  it('refuses an open member (300) and answers 901 for malformed details, without counting them', async () => {
    const openMember = await pointMember(t, { openPoints: 20 });
    const target = await pointMember(t, { openPoints: 30 });
    const res = await link(t, openMember.access_token, detailsOf(target));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual(CARD_ONLY);

    const member = await cardMember(t);
    const right = detailsOf(target);
    const malformed = [
      {},
      { ...right, email: 'not-an-address' },
      { ...right, last_name_kana: 'さとう' },
      { ...right, first_name_kana: 'ハ'.repeat(20) },
      { ...right, birthday: '1990011' },
      { ...right, birthday: '19901301' },
      { ...right, tel: '090-0000-0002' },
      { ...right, tel: 9000000002 },
      { ...right, password: 12345678 },
      ['just', 'an', 'array'],
    ];
    for (const body of malformed) {
      const r = await link(t, member.access_token, body);
      expect(r.statusCode, JSON.stringify(body)).toBe(400);
      expect(r.json().result_code, JSON.stringify(body)).toBe(901);
    }
    // Ten malformed requests, and the link still works: they were not counted as failed matches.
    expect((await link(t, member.access_token, right)).json()).toEqual({ ...OK, aqf_point_open: 30 });
  });
});
