import { describe, expect, it } from 'vitest';
import { pointInfoResponseSchema, transferResultResponseSchema, transferSelectResponseSchema } from '@sso/contracts/points';
import { sha256 } from '../../lib/secrets.ts';
import { latestCode, mailsTo } from '../../test-support/mailbox.ts';
import { loginTokens, withTestApp } from '../../test-support/test-app.ts';
import { DIALECTS } from '../../test-support/test-db.ts';
import {
  addCard,
  aqf,
  call,
  confirm,
  eventRows,
  messagesTo,
  OK,
  pointMember,
  REFUSED,
  select,
  SMS_CARDS,
  startTransfer,
  TRANSFER_EXPIRED,
} from '../../test-support/points-kit.ts';

const MINUTE = 60_000;

describe.each(DIALECTS)('point info and transfer (%s)', (dialect) => {
  const t = withTestApp(dialect);
  const db = () => t.testDb.db.kysely;
  const transfers = (userId: string) => db().selectFrom('point_transfers').selectAll().where('user_id', '=', userId).execute();

  it('answers the point info of an open member and of a card member', async () => {
    const open = await pointMember(t, { openPoints: 1200 });
    const info = await aqf(t, open.access_token);
    expect(pointInfoResponseSchema.parse(info)).toEqual({ ...OK, is_na_point: false, is_open_point: true, aqf_point_na: 0, aqf_point_open: 1200 });
    const card = await pointMember(t, { card: true, openPoints: null, cards: [{ pointCapable: false }, {}] });
    expect(await aqf(t, card.access_token)).toEqual({ ...OK, is_na_point: true, is_open_point: false, aqf_point_na: 0, aqf_point_open: 0 });
    const plain = await pointMember(t, { card: true, openPoints: null, cards: [{ pointCapable: false }] });
    expect((await aqf(t, plain.access_token)).is_na_point).toBe(false);
  });

  it('moves the whole open balance to the card after the SMS code, once, and answers a retry the same', async () => {
    const member = await pointMember(t, { openPoints: 1200, cards: [{ esid: 'ES1000000001' }] });
    const mobile = SMS_CARDS.ES1000000001;
    const { body, code } = await startTransfer(t, member.access_token, member.subuserIds[0]!, mobile);
    expect(transferSelectResponseSchema.parse(body)).toEqual({
      ...OK,
      destination_to: 'sms',
      register_token: body.register_token,
      email: member.email,
      tel: '090-****-0001',
    });
    // Stored hashed: the flow by the token's SHA-256, the code as argon2id; nothing went to the member's mail.
    const [flow] = await db().selectFrom('member_flows').selectAll().where('user_id', '=', member.id).execute();
    expect(flow).toMatchObject({ kind: 'point_transfer', state: 'otp', token_hash: sha256(body.register_token) });
    expect(Number(flow!.expires_at) - Number(flow!.created_at)).toBe(30 * MINUTE);
    const [secret] = await db().selectFrom('verifications').selectAll().where('subject', '=', flow!.id).execute();
    expect(secret).toMatchObject({ purpose: 'point_transfer' });
    expect(secret!.secret_hash).toMatch(/^\$argon2id\$/);
    expect(await mailsTo(t.app, member.email)).toEqual([]);

    const res = await confirm(t, member.access_token, body.register_token, code);
    expect(res.statusCode, res.body).toBe(200);
    const moved = { ...OK, moved_points: 1200, aqf_point_open: 0, aqf_point_na: 1200 };
    expect(transferResultResponseSchema.parse(res.json())).toEqual(moved);
    expect(await aqf(t, member.access_token)).toMatchObject({ aqf_point_open: 0, aqf_point_na: 1200, is_open_point: true });
    expect(await transfers(member.id)).toMatchObject([{ id: flow!.id, esid: 'ES1000000001' }]);

    // A retry (the answer was lost) answers the recorded result and moves nothing.
    await db().updateTable('point_accounts').set({ points: 300 }).where('user_id', '=', member.id).where('kind', '=', 'open').execute();
    expect((await confirm(t, member.access_token, body.register_token, code)).json()).toEqual(moved);
    expect(await aqf(t, member.access_token)).toMatchObject({ aqf_point_open: 300, aqf_point_na: 1200 });
    expect(await transfers(member.id)).toHaveLength(1);
    expect(await eventRows(t, member.id, 'points_transferred')).toEqual([
      { event: 'points_transferred', detail: JSON.stringify({ device: 'Chrome / Windows', address: '127.0.0.1' }) },
    ]);
  });

  it('moves the points once when the same code is submitted in parallel', async () => {
    const member = await pointMember(t, { openPoints: 1500, cards: [{}] });
    const { body, code } = await startTransfer(t, member.access_token, member.subuserIds[0]!, member.email);
    const answers = await Promise.all([1, 2, 3, 4].map(() => confirm(t, member.access_token, body.register_token, code)));
    for (const a of answers) expect(a.json(), a.body).toEqual({ ...OK, moved_points: 1500, aqf_point_open: 0, aqf_point_na: 1500 });
    expect(await aqf(t, member.access_token)).toMatchObject({ aqf_point_open: 0, aqf_point_na: 1500 });
    expect(await transfers(member.id)).toHaveLength(1);
    expect(await eventRows(t, member.id, 'points_transferred')).toHaveLength(1);
    const [flow] = await db().selectFrom('member_flows').select('state').where('user_id', '=', member.id).execute();
    expect(flow!.state).toBe('done');
    // Nothing left to move: the summary's third refusal.
    expect((await select(t, member.access_token, member.subuserIds[0])).json()).toEqual(REFUSED.zeroBalance);
  });

  it('sends the code by mail to the member when the card master knows no holder mobile', async () => {
    const member = await pointMember(t, { openPoints: 10, cards: [{ esid: 'ES-UNKNOWN-1' }] });
    const { body, code } = await startTransfer(t, member.access_token, member.subuserIds[0]!, member.email);
    expect(body).toMatchObject({ destination_to: 'email', email: member.email, tel: '' });
    const [mail] = await mailsTo(t.app, member.email);
    expect(mail!.subject).toBe('【メンバーID】ポイント移行のワンタイムパスワード');
    expect(mail!.text).toContain(code);
    expect((await confirm(t, member.access_token, body.register_token, code)).json()).toMatchObject({ moved_points: 10, aqf_point_na: 10 });
  });

  it('refuses with one of the three messages, sending nothing and starting no flow', async () => {
    // No open account (a card member who has not linked one).
    const cardOnly = await pointMember(t, { card: true, openPoints: null, cards: [{}] });
    expect((await select(t, cardOnly.access_token, cardOnly.subuserIds[0])).json()).toEqual(REFUSED.openInfoUnavailable);
    // No eligible card: none, another member's, one without points, one not active: the same answer.
    const member = await pointMember(t, { openPoints: 500, cards: [{ pointCapable: false }, { status: 'inactive' }, { status: 'unactivated' }] });
    for (const id of [...member.subuserIds, cardOnly.subuserIds[0], 'no-such-card']) {
      const res = await select(t, member.access_token, id);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual(REFUSED.noEligibleCard);
    }
    // A zero balance.
    const empty = await pointMember(t, { openPoints: 0, cards: [{}] });
    expect((await select(t, empty.access_token, empty.subuserIds[0])).json()).toEqual(REFUSED.zeroBalance);
    for (const m of [cardOnly, member, empty]) {
      expect(await db().selectFrom('member_flows').select('id').where('user_id', '=', m.id).execute()).toEqual([]);
      expect(await messagesTo(t, m.email)).toBe(0);
    }
  });

  it('refuses a register_token of another member, an expired flow, an expired code and a replaced flow', async () => {
    const member = await pointMember(t, { openPoints: 700, cards: [{}] });
    const other = await pointMember(t, { openPoints: 900, cards: [{}] });
    const first = await startTransfer(t, member.access_token, member.subuserIds[0]!, member.email);
    // Another member with the right code and token: refused as unknown, nothing moves, no try is used.
    expect((await confirm(t, other.access_token, first.body.register_token, first.code)).json()).toEqual(TRANSFER_EXPIRED);
    expect(await aqf(t, other.access_token)).toMatchObject({ aqf_point_open: 900, aqf_point_na: 0 });
    expect((await confirm(t, member.access_token, 'not-a-token', first.code)).json()).toEqual(TRANSFER_EXPIRED);

    // A newer select replaces the flow: its token and code stop working; the new ones work.
    const second = await startTransfer(t, member.access_token, member.subuserIds[0]!, member.email);
    expect((await confirm(t, member.access_token, first.body.register_token, first.code)).json()).toEqual(TRANSFER_EXPIRED);
    expect((await confirm(t, member.access_token, first.body.register_token, second.code)).json()).toEqual(TRANSFER_EXPIRED);
    const states = await db().selectFrom('member_flows').select('state').where('user_id', '=', member.id).orderBy('created_at').execute();
    expect(states.map((s) => s.state).sort()).toEqual(['otp', 'replaced']);

    // The code lives 10 minutes, the flow 30: either expired answers the same, and nothing moves.
    t.clock.advance(10 * MINUTE + 1);
    expect((await confirm(t, member.access_token, second.body.register_token, second.code)).json()).toEqual(TRANSFER_EXPIRED);
    const third = await startTransfer(t, member.access_token, member.subuserIds[0]!, member.email);
    t.clock.advance(30 * MINUTE + 1);
    // The access token has expired meanwhile: log in again.
    const relogged = await loginTokens(t.app, { user: member.email, password: member.password });
    expect((await confirm(t, relogged.access_token, third.body.register_token, third.code)).json()).toEqual(TRANSFER_EXPIRED);
    expect(await aqf(t, relogged.access_token)).toMatchObject({ aqf_point_open: 700, aqf_point_na: 0 });
  });

  it('refuses the transfer to a card removed after the select', async () => {
    const member = await pointMember(t, { openPoints: 40, cards: [{}] });
    const { body, code } = await startTransfer(t, member.access_token, member.subuserIds[0]!, member.email);
    await db().deleteFrom('sub_users').where('id', '=', member.subuserIds[0]!).execute();
    expect((await confirm(t, member.access_token, body.register_token, code)).json()).toEqual(REFUSED.noEligibleCard);
    expect(await aqf(t, member.access_token)).toMatchObject({ aqf_point_open: 40 });
    // A new card, a new select: the points move.
    const next = await addCard(t, member.id);
    const again = await startTransfer(t, member.access_token, next, member.email);
    expect((await confirm(t, member.access_token, again.body.register_token, again.code)).json()).toMatchObject({ moved_points: 40 });
  });

  it('stops sending codes to one recipient beyond the message limit', async () => {
    const member = await pointMember(t, { openPoints: 5, cards: [{}] });
    for (let i = 0; i < 5; i++) expect((await select(t, member.access_token, member.subuserIds[0])).statusCode).toBe(200);
    const sixth = await select(t, member.access_token, member.subuserIds[0]);
    expect(sixth.json()).toEqual({ result_code: 902, result_message: '再送信の回数が上限に達しました。しばらく経ってから再度お試しください。' });
    expect(await messagesTo(t, member.email)).toBe(5);
  });

  it('answers 401 without a Bearer token, and 901 for malformed bodies, never 500', async () => {
    for (const url of ['/api/user/aqf', '/api/aqf/transfer/open/select', '/api/aqf/transfer/open/otp', '/api/link/open']) {
      const res = await call(t, url, undefined, {});
      expect(res.statusCode, url).toBe(401);
      expect(res.json()).toMatchObject({ result_code: 300 });
    }
    const member = await pointMember(t, { openPoints: 5, cards: [{}] });
    const validation = (key: string, message: string) => ({
      result_code: 901,
      result_message: '入力内容をご確認ください。',
      validation_errors: [{ key, message }],
    });
    const bad: [string, unknown, unknown][] = [
      ['/api/aqf/transfer/open/select', {}, validation('subuser_id', 'カードを選択してください')],
      ['/api/aqf/transfer/open/select', { subuser_id: 42 }, validation('subuser_id', 'カードを選択してください')],
      ['/api/aqf/transfer/open/select', { subuser_id: 'x'.repeat(65) }, validation('subuser_id', 'カードを選択してください')],
      ['/api/aqf/transfer/open/otp', { register_token: 'abc', onetime_password: '12345' }, { result_code: 901 }],
      ['/api/aqf/transfer/open/otp', { register_token: '', onetime_password: '123456' }, validation('register_token', '入力してください')],
      ['/api/aqf/transfer/open/otp', { register_token: 'x'.repeat(257), onetime_password: '123456' }, { result_code: 901 }],
      ['/api/aqf/transfer/open/otp', [], { result_code: 901 }],
    ];
    for (const [url, body, answer] of bad) {
      const res = await call(t, url, member.access_token, body);
      expect(res.statusCode, `${url} ${JSON.stringify(body)}`).toBe(400);
      expect(res.json()).toMatchObject(answer as object);
    }
    for (const url of ['/api/aqf/transfer/open/select', '/api/aqf/transfer/open/otp', '/api/link/open']) {
      const res = await t.app.inject({
        method: 'POST',
        url,
        headers: { authorization: `Bearer ${member.access_token}`, 'content-type': 'application/json' },
        payload: '{"subuser_id":',
      });
      expect(res.statusCode, url).toBeLessThan(500);
    }
    expect(await latestCode(t.app, member.email)).toBe(undefined);
  });
});
