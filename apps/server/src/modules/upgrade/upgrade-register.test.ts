import { beforeEach, describe, expect, it } from 'vitest';
import { LIMITS } from '@sso/contracts/constants';
import { upgradeRegisterResponseSchema } from '@sso/contracts/upgrade';
import { withTestApp } from '../../test-support/test-app.ts';
import { mailsTo } from '../../test-support/mailbox.ts';
import { DIALECTS } from '../../test-support/test-db.ts';
import { call, loggedInMember } from '../../test-support/account-change-kit.ts';
import { CARDS, cardBody, codeFor, newEmail, post } from '../../test-support/signup-kit.ts';
import { ANSWER, cardFields, cardMemberTokens, messagesTo } from '../../test-support/upgrade-kit.ts';

const NOT_FOUND = {
  result_code: 902,
  result_message: 'ご入力のカード情報ではご登録いただけません。カード番号・有効期限・セキュリティコードをご確認ください。',
};

describe.each(DIALECTS)('upgrade: /api/auth/register (%s)', (dialect) => {
  const t = withTestApp(dialect);
  beforeEach(() => t.clock.advance(LIMITS.signupLockMs));

  const register = (access: string | undefined, payload: unknown) => call(t, '/api/auth/register', access, payload);
  const registered = async (access: string, card: { cardnumber: string; cvc: string }) => {
    const res = await register(access, cardFields(card));
    expect(res.statusCode, res.body).toBe(200);
    return upgradeRegisterResponseSchema.parse(res.json());
  };

  it('starts the SMS check of an OtpSMS card: the code goes to the holder\'s mobile, masked in the answer', async () => {
    const member = await loggedInMember(t);
    const sent = await messagesTo(t, CARDS.sms.mobile);
    const body = await registered(member.access_token, CARDS.sms);
    expect(body).toEqual({
      result_code: 0,
      result_message: '正常に処理しました。',
      register_token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      destination_to: 'OtpSMS',
      tel: '090-****-0001',
    });
    expect(await messagesTo(t, CARDS.sms.mobile)).toBe(sent + 1);
    expect(await codeFor(t, CARDS.sms.mobile)).toMatch(/^\d{6}$/);
    const flow = await t.testDb.db.kysely.selectFrom('member_flows').selectAll().where('user_id', '=', member.id).executeTakeFirstOrThrow();
    expect(flow).toMatchObject({ kind: 'upgrade', state: 'otp' });
    expect(JSON.parse(flow.data_json).card).toMatchObject({ esid: 'ES1000000001', holderId: 'H1000001' });
    expect(flow.data_json).not.toContain(CARDS.sms.cardnumber);
  });

  it('mails the code of an OtpEmail card to the member\'s own address', async () => {
    const member = await loggedInMember(t);
    const body = await registered(member.access_token, CARDS.mail);
    expect(body).toMatchObject({ result_code: 0, destination_to: 'OtpEmail', email: 'r***@example.com' });
    expect(body.tel).toBeUndefined();
    const [mail] = await mailsTo(t.app, member.email);
    expect(mail!.subject).toContain('カード登録のワンタイムパスワード');
    expect(mail!.text).toMatch(/ワンタイムパスワード：\d{6}/);
  });

  it('asks the PIN of a Pin card, sending nothing and keeping the PIN only as an argon2id hash', async () => {
    const member = await loggedInMember(t);
    const body = await registered(member.access_token, CARDS.pin);
    expect(body).toMatchObject({ result_code: 0, destination_to: 'Pin' });
    expect(body.tel).toBeUndefined();
    expect(body.email).toBeUndefined();
    expect(await mailsTo(t.app, member.email)).toEqual([]);
    const flow = await t.testDb.db.kysely.selectFrom('member_flows').select('id').where('user_id', '=', member.id).executeTakeFirstOrThrow();
    const secret = await t.testDb.db.kysely.selectFrom('verifications').selectAll().where('subject', '=', flow.id).executeTakeFirstOrThrow();
    expect(secret).toMatchObject({ purpose: 'upgrade', attempts: 0, max_attempts: 5 });
    expect(secret.secret_hash).toMatch(/^\$argon2id\$/);
  });

  it('refuses a card member with 300 and sends nothing', async () => {
    const tokens = await cardMemberTokens(t);
    const sent = await messagesTo(t, '09022220001');
    expect((await register(tokens.access_token, cardFields({ cardnumber: '4541000000000201', cvc: '123' }))).json()).toEqual(ANSWER.openOnly);
    expect(await messagesTo(t, '09022220001')).toBe(sent);
  });

  it('answers the sign-up\'s guides, and 902 for a card registered to anyone', async () => {
    const member = await loggedInMember(t);
    expect((await register(member.access_token, cardFields(CARDS.info))).json()).toMatchObject({ result_code: 903 });
    expect((await register(member.access_token, cardFields(CARDS.chatbot))).json()).toMatchObject({ result_code: 904 });
    // The demo card member's card (config/demo-cards.json 4541000000000101).
    expect((await register(member.access_token, cardFields({ cardnumber: '4541000000000101', cvc: '123' }))).json()).toEqual(ANSWER.linked);
  });

  it('locks a card number after 5 failed checks, shared with the card sign-up', async () => {
    const member = await loggedInMember(t);
    const wrong = cardFields(CARDS.house, { cc_month: '11' });
    for (let i = 0; i < 4; i++) expect((await register(member.access_token, wrong)).json()).toEqual(NOT_FOUND);
    expect((await register(member.access_token, wrong)).json()).toEqual(ANSWER.cardLocked);
    // The right card details now answer 203 here and at the sign-up.
    const other = await loggedInMember(t);
    expect((await register(other.access_token, cardFields(CARDS.house))).json()).toEqual(ANSWER.cardLocked);
    expect((await post(t, '/api/signup/card', cardBody(CARDS.house, newEmail()))).json()).toEqual(ANSWER.cardLocked);
    t.clock.advance(LIMITS.signupLockMs);
    expect((await register(other.access_token, cardFields(CARDS.house))).json().result_code).toBe(0);
  });

  it('locks a member\'s register after 5 failed checks across card numbers', async () => {
    const member = await loggedInMember(t);
    for (let i = 0; i < 4; i++) {
      expect((await register(member.access_token, cardFields({ cardnumber: `454100000000990${i}`, cvc: '123' }))).json()).toEqual(NOT_FOUND);
    }
    expect((await register(member.access_token, cardFields({ cardnumber: '4541000000009909', cvc: '123' }))).json()).toEqual(ANSWER.cardLocked);
    expect((await register(member.access_token, cardFields({ cardnumber: '3528000000000203', cvc: '123' }))).json()).toEqual(ANSWER.cardLocked);
    // Another member is not locked by it.
    const other = await loggedInMember(t);
    expect((await register(other.access_token, cardFields({ cardnumber: '3528000000000203', cvc: '123' }))).json().result_code).toBe(0);
  });

  it('keeps within the holder\'s message limit, shared with the sign-up', async () => {
    const member = await loggedInMember(t);
    const card = { cardnumber: '0300000000000204', cvc: '' };
    for (let i = 0; i < 5; i++) expect((await register(member.access_token, cardFields(card))).json().result_code).toBe(0);
    expect((await register(member.access_token, cardFields(card))).json()).toEqual(ANSWER.limit);
  });

  it('answers 401 without a Bearer token and 901 for malformed cards, never 500', async () => {
    for (const headers of [{}, { authorization: 'Bearer not-a-token' }]) {
      const res = await t.app.inject({ method: 'POST', url: '/api/auth/register', headers, payload: cardFields(CARDS.sms) });
      expect(res.statusCode).toBe(401);
      expect(res.json().result_code).toBe(300);
    }
    const member = await loggedInMember(t);
    const bad = [
      [cardFields(CARDS.sms, { cardnumber: '1234000000000001' }), 'cardnumber'],
      [cardFields(CARDS.sms, { cardnumber: '4541abcd' }), 'cardnumber'],
      [cardFields(CARDS.sms, { cc_month: '13' }), 'cc_month'],
      [cardFields(CARDS.sms, { cc_year: '1999' }), 'cc_year'],
      [cardFields(CARDS.sms, { cvc: '' }), 'cvc'],
      [cardFields(CARDS.house, { cvc: '123' }), 'cvc'],
      [{}, 'cardnumber'],
    ] as const;
    for (const [payload, key] of bad) {
      const res = await register(member.access_token, payload);
      expect(res.json(), key).toMatchObject({ result_code: 901 });
      expect(res.json().validation_errors.map((e: { key: string }) => e.key), key).toContain(key);
    }
    for (const payload of ['not json', '[]', 'null']) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/auth/register',
        headers: { authorization: `Bearer ${member.access_token}`, 'content-type': 'application/json' },
        payload,
      });
      expect(res.statusCode, payload).toBe(400);
    }
  });
});
