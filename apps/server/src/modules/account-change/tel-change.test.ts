import { beforeEach, describe, expect, it } from 'vitest';
import { telChangeResponseSchema } from '@sso/contracts/account';
import { LIMITS } from '@sso/contracts/constants';
import { userResponseSchema } from '@sso/contracts/user';
import { DEMO } from '../../seed.ts';
import { readMailbox } from '../../test-support/mailbox.ts';
import { withTestApp, type TestApp } from '../../test-support/test-app.ts';
import { DIALECTS } from '../../test-support/test-db.ts';
import { FRESH_PROOF_NEEDED, reauth, refusalOf } from '../../test-support/fresh-proof-kit.ts';
import { hashSecret } from '../verification/codes.ts';
import { codeFor } from '../../test-support/signup-kit.ts';
import { call, eventRows, loggedInMember, loginCheck, OK } from '../../test-support/account-change-kit.ts';

const OTP_WRONG = { result_code: 902, result_message: 'ワンタイムパスワードが正しくありません。もう一度ご入力ください。' };
const LOCKED = { result_code: 203, result_message: '入力回数の上限を超えたため、しばらくの間お手続きいただけません。時間をおいて再度お試しください。' };
const EXPIRED = { result_code: 300, result_message: 'お手続きの有効期限が切れたか、既に完了しています。お手数ですが、最初からやり直してください。' };
const UNAVAILABLE = { result_code: 902, result_message: 'この携帯電話番号はご利用いただけません。別の携帯電話番号をご入力ください。' };

let serial = 0;
/** A mobile number nobody has, each time. */
const freeTel = () => `080${String(20_000_000 + ++serial).slice(-8)}`;
const wrongCode = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

const request = (t: TestApp, access: string | undefined, tel: unknown) => call(t, '/api/auth/tel/change', access, { tel });
const confirm = (t: TestApp, access: string | undefined, register_token: unknown, onetime_password: unknown) =>
  call(t, '/api/auth/tel/change/otp', access, { register_token, onetime_password });
const smsTo = async (t: TestApp, to: string) => (await readMailbox(t.app)).filter((m) => m.kind === 'sms' && m.to === to);

/** Requests the number for the member, expecting the common answer, and returns its register_token. */
async function requested(t: TestApp, access: string, tel: string): Promise<string> {
  const res = await request(t, access, tel);
  expect(res.statusCode, res.body).toBe(200);
  return telChangeResponseSchema.parse(res.json()).register_token;
}

describe.each(DIALECTS)('login mobile number: /api/auth/tel/change and /otp (%s)', (dialect) => {
  const t = withTestApp(dialect);
  const db = () => t.testDb.db.kysely;
  beforeEach(() => t.clock.advance(LIMITS.signupLockMs));

  it('makes a number a login id only once the SMS code proves it, and the old one logs in no more', async () => {
    const member = await loggedInMember(t);
    const tel = freeTel();
    const res = await request(t, member.access_token, tel);
    expect(res.json()).toEqual({ ...OK, register_token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/), tel: `080-****-${tel.slice(-4)}` });
    const [sms, ...more] = await smsTo(t, tel);
    expect(more).toEqual([]);
    expect(sms!.text).toContain('ログイン用携帯電話番号');
    // Not yet a login id: the code has not been confirmed.
    expect(await loginCheck(t, tel, member.password)).toBe(200);
    const flow = await db().selectFrom('member_flows').select(['kind', 'state', 'data_json']).where('user_id', '=', member.id).executeTakeFirstOrThrow();
    expect(flow).toEqual({ kind: 'login_tel', state: 'otp', data_json: JSON.stringify({ tel }) });

    expect((await confirm(t, member.access_token, res.json().register_token, await codeFor(t, tel))).json()).toEqual(OK);
    expect(await loginCheck(t, tel, member.password)).toBe(0);
    expect(await loginCheck(t, member.tel, member.password)).toBe(200);
    expect(await eventRows(t, member.id, 'login_tel_changed')).toHaveLength(1);
    const me = userResponseSchema.parse((await call(t, '/api/user', member.access_token)).json());
    expect(me.login_tel).toBe(`080-****-${tel.slice(-4)}`);
    // The member's address is told, without the number; the session goes on.
    const mail = (await readMailbox(t.app)).find((m) => m.kind === 'mail' && m.to === member.email);
    expect(mail?.subject).toBe('【メンバーID】ログイン用携帯電話番号登録のお知らせ');
    expect(mail?.text).not.toContain(tel.slice(-4));
    // With the "not me" link of every notice mail (decision 0033).
    expect(mail?.text).toMatch(/\/content\/not-me\?token=[A-Za-z0-9_-]{43}/);
    // The flow is done: its token and code are used up.
    expect((await confirm(t, member.access_token, res.json().register_token, await codeFor(t, tel))).json()).toEqual(EXPIRED);
  });

  it('lets a member with no login number add one (an open sign-up no longer gives one)', async () => {
    const member = await loggedInMember(t);
    await db().updateTable('users').set({ tel: null }).where('id', '=', member.id).execute();
    expect(userResponseSchema.parse((await call(t, '/api/user', member.access_token)).json()).login_tel).toBeNull();
    const tel = freeTel();
    const token = await requested(t, member.access_token, tel);
    expect((await confirm(t, member.access_token, token, await codeFor(t, tel))).json()).toEqual(OK);
    expect(await loginCheck(t, tel, member.password)).toBe(0);
  });

  it("answers another member's number exactly as a free one, sends it no code, and no code makes it the member's", async () => {
    const member = await loggedInMember(t);
    const free = await request(t, member.access_token, freeTel());
    const taken = await request(t, member.access_token, DEMO.card.tel);
    const shape = (b: Record<string, unknown>) => ({ ...b, register_token: typeof b.register_token, tel: String(b.tel).replace(/\d/g, '0') });
    expect([taken.statusCode, shape(taken.json())]).toEqual([free.statusCode, shape(free.json())]);
    expect(taken.json().tel).toBe('090-****-0001');
    // Its owner is told, with no code in the message.
    const [notice] = await smsTo(t, DEMO.card.tel);
    expect(notice!.text).toContain('既に登録済み');
    expect(notice!.text).not.toMatch(/\d{6}/);
    // Even a right code (planted here: none was sent) answers the neutral 902 and changes nothing.
    const flow = await db().selectFrom('member_flows').select('id').where('user_id', '=', member.id).where('state', '=', 'otp').executeTakeFirstOrThrow();
    await db().updateTable('verifications').set({ secret_hash: await hashSecret('123456') }).where('subject', '=', flow.id).execute();
    expect((await confirm(t, member.access_token, taken.json().register_token, '123456')).json()).toEqual(UNAVAILABLE);
    expect(await loginCheck(t, DEMO.card.tel, DEMO.card.password)).toBe(0);
    expect(await loginCheck(t, DEMO.card.tel, member.password)).toBe(200);
    expect(await eventRows(t, member.id, 'login_tel_changed')).toEqual([]);
  });

  it('answers the neutral 902 when another member proved the number first', async () => {
    const [first, second] = [await loggedInMember(t), await loggedInMember(t)];
    const tel = freeTel();
    const firstToken = await requested(t, first.access_token, tel);
    const firstCode = await codeFor(t, tel);
    const secondToken = await requested(t, second.access_token, tel);
    expect((await confirm(t, second.access_token, secondToken, await codeFor(t, tel))).json()).toEqual(OK);
    expect((await confirm(t, first.access_token, firstToken, firstCode)).json()).toEqual(UNAVAILABLE);
    expect(await loginCheck(t, tel, second.password)).toBe(0);
    expect((await db().selectFrom('users').select('tel').where('id', '=', first.id).executeTakeFirstOrThrow()).tel).toBe(first.tel);
  });

  it('locks the member at the fifth wrong code, the right one included, and across new requests', async () => {
    const member = await loggedInMember(t);
    const tel = freeTel();
    const token = await requested(t, member.access_token, tel);
    const right = await codeFor(t, tel);
    for (let i = 0; i < 4; i++) expect((await confirm(t, member.access_token, token, wrongCode(right))).json()).toEqual(OTP_WRONG);
    expect((await confirm(t, member.access_token, token, wrongCode(right))).json()).toEqual(LOCKED);
    expect((await confirm(t, member.access_token, token, right)).json()).toEqual(LOCKED);
    expect((await request(t, member.access_token, freeTel())).json()).toEqual(LOCKED);
    expect(await loginCheck(t, tel, member.password)).toBe(200);

    t.clock.advance(LIMITS.signupLockMs + 1);
    // Past the lock the login is no longer fresh: adding a login identifier asks for the password again (decision 0012).
    expect(refusalOf(await request(t, member.access_token, tel))).toEqual(FRESH_PROOF_NEEDED);
    expect((await reauth(t, member.access_token, member.password)).json()).toMatchObject({ result_code: 0 });
    const again = await requested(t, member.access_token, tel);
    expect((await confirm(t, member.access_token, again, await codeFor(t, tel))).json()).toEqual(OK);
  });

  it("refuses another member's, an unknown and a replaced register_token (300), and a code from the wrong flow", async () => {
    const [member, other] = [await loggedInMember(t), await loggedInMember(t)];
    const tel = freeTel();
    const old = await requested(t, member.access_token, tel);
    const oldCode = await codeFor(t, tel);
    expect((await confirm(t, other.access_token, old, oldCode)).json()).toEqual(EXPIRED);
    expect((await confirm(t, member.access_token, 'not-a-token', oldCode)).json()).toEqual(EXPIRED);
    const next = await requested(t, member.access_token, tel);
    expect((await confirm(t, member.access_token, old, oldCode)).json()).toEqual(EXPIRED);
    t.clock.advance(LIMITS.memberFlowTtlMs + 1);
    expect((await confirm(t, member.access_token, next, await codeFor(t, tel))).json()).toEqual(EXPIRED);
    expect(await loginCheck(t, tel, member.password)).toBe(200);
  });

  it('answers 401 without a token, 901 for a malformed number or code, telSame for the own number, 902 beyond the message limit', async () => {
    const member = await loggedInMember(t);
    for (const res of [await request(t, undefined, freeTel()), await confirm(t, undefined, 'x', '123456')]) {
      expect(res.statusCode).toBe(401);
      expect(res.json().result_code).toBe(300);
    }
    const malformed: [unknown, string][] = [
      [undefined, '入力してください'],
      ['090-1234-5678', 'すべて半角数字で入力してください'],
      ['090123456', '10桁または11桁の半角数字で入力してください（ハイフン不要）'],
      [9012345678, '入力してください'],
      // Over-length has its own message (SPEC.md section 5), the field's length message, never the digits one.
      ['0'.repeat(65), '10桁または11桁の半角数字で入力してください（ハイフン不要）'],
    ];
    for (const [tel, message] of malformed) {
      const res = await request(t, member.access_token, tel);
      expect(res.statusCode, String(tel)).toBe(400);
      expect(res.json(), String(tel)).toMatchObject({ result_code: 901, validation_errors: [{ key: 'tel', message }] });
    }
    const otp = await confirm(t, member.access_token, 'x', '12345');
    expect(otp.json()).toMatchObject({ result_code: 901, validation_errors: [{ key: 'onetime_password' }] });
    const longOtp = await confirm(t, member.access_token, 'x', '1234567');
    expect(longOtp.json()).toMatchObject({ result_code: 901, validation_errors: [{ key: 'onetime_password', message: 'ワンタイムパスワードを6桁の半角数字で入力してください' }] });
    expect((await request(t, member.access_token, member.tel)).json()).toEqual({ result_code: 902, result_message: '現在と同じ携帯電話番号です。' });

    const tel = freeTel();
    for (let i = 0; i < LIMITS.messagesPerRecipient; i++) await requested(t, member.access_token, tel);
    expect((await request(t, member.access_token, tel)).json()).toEqual({
      result_code: 902,
      result_message: '再送信の回数が上限に達しました。しばらく経ってから再度お試しください。',
    });
    expect(await smsTo(t, tel)).toHaveLength(LIMITS.messagesPerRecipient);
  });
});
