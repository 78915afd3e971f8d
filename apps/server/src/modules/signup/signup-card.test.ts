import { beforeEach, describe, expect, it } from 'vitest';
import { LIMITS } from '@sso/contracts/constants';
import { withTestApp } from '../../test-support/test-app.ts';
import { readMailbox } from '../../test-support/mailbox.ts';
import { DIALECTS } from '../../test-support/test-db.ts';
import { CARDS, cardBody, newEmail, post, startSignup } from '../../test-support/signup-kit.ts';

const CARD_NOT_FOUND = {
  result_code: 902,
  result_message: 'ご入力のカード情報ではご登録いただけません。カード番号・有効期限・セキュリティコードをご確認ください。',
};
const LOCKED = { result_code: 203, result_message: '入力回数の上限を超えたため、しばらくの間ご登録いただけません。時間をおいて再度お試しください。' };

const ENDPOINTS = [
  '/api/signup/card',
  '/api/signup/sms',
  '/api/signup/pin',
  '/api/signup/otp',
  '/api/sms/resend',
  '/api/otp/resend',
  '/api/signup/terms_accept',
];

describe.each(DIALECTS)('POST /api/signup/card refusals (%s)', (dialect) => {
  const t = withTestApp(dialect);
  beforeEach(() => t.clock.advance(LIMITS.signupLockMs));

  const card = (body: Record<string, unknown>) => post(t, '/api/signup/card', body);
  const keys = async (body: Record<string, unknown>) => {
    const res = await card(body);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ result_code: 901, result_message: '入力内容をご確認ください。' });
    return (res.json().validation_errors as { key: string; message: string }[]).map((e) => e.key);
  };

  it('answers 901 with the keys of missing fields', async () => {
    expect(await keys({})).toEqual(expect.arrayContaining(['username', 'password', 'password_check', 'cardnumber', 'cc_month', 'cc_year', 'check', 'client_id', 'redirect_uri', 'code_challenge']));
    const res = await card({ ...cardBody(CARDS.sms, ''), password_check: '' });
    expect(res.json().validation_errors).toEqual([
      { key: 'username', message: '入力してください' },
      { key: 'password_check', message: '入力してください' },
    ]);
  });

  it('words every 901 message in Japanese, the hidden OAuth fields and wrong types included', async () => {
    for (const body of [{}, { cardnumber: 12, check: 'yes', client_id: [], recaptcha_token: {} }]) {
      const messages = ((await card(body)).json().validation_errors as { message: string }[]).map((e) => e.message);
      expect(messages.length).toBeGreaterThan(5);
      for (const m of messages) expect(m, JSON.stringify(body)).toMatch(/^[^A-Za-z]*$/);
    }
  });

  it('answers 901 for a card that is not the company\'s, a bad number, expiry or security code', async () => {
    const email = newEmail();
    const one = async (over: Record<string, unknown>) => (await card(cardBody(CARDS.sms, email, over))).json().validation_errors;
    expect(await one({ cardnumber: '1234000000000001' })).toEqual([{ key: 'cardnumber', message: '当社発行のカードのみご登録いただけます' }]);
    expect(await one({ cardnumber: '4541-0000-0000-0001' })).toEqual([{ key: 'cardnumber', message: 'すべて半角数字で入力してください' }]);
    expect(await one({ cc_month: '13' })).toEqual([expect.objectContaining({ key: 'cc_month' })]);
    expect(await one({ cc_year: '30' })).toEqual([expect.objectContaining({ key: 'cc_year' })]);
    expect(await one({ cvc: '' })).toEqual([{ key: 'cvc', message: '入力してください' }]);
    expect(await one({ cvc: '12' })).toEqual([expect.objectContaining({ key: 'cvc' })]);
    expect(await one({ check: false })).toEqual([expect.objectContaining({ key: 'check' })]);
    expect(await one({ code_challenge_method: 'plain' })).toEqual([expect.objectContaining({ key: 'code_challenge_method' })]);
  });

  it('answers 901 for the password rules and a confirmation that differs', async () => {
    const email = newEmail();
    for (const password of ['Short1', 'abcdefghij', '1234567890', 'Abcdefgh1!', 'Abcdefgh12345678x']) {
      const res = await card(cardBody(CARDS.sms, email, { password, password_check: password }));
      expect(res.json().validation_errors, password).toEqual([expect.objectContaining({ key: 'password' })]);
    }
    const res = await card(cardBody(CARDS.sms, email, { password_check: 'Other-2030' }));
    expect(res.json().validation_errors).toEqual([{ key: 'password_check', message: 'パスワード欄と同じ値を入力してください' }]);
    expect(await keys(cardBody(CARDS.sms, 'not-an-address'))).toEqual(['username']);
  });

  it('answers 901 naming client_id, redirect_uri or scope the client does not have, before anything is sent', async () => {
    const before = (await readMailbox(t.app)).length;
    expect(await keys(cardBody(CARDS.sms, newEmail(), { client_id: 'SIAP999' }))).toEqual(['client_id']);
    expect(await keys(cardBody(CARDS.sms, newEmail(), { redirect_uri: 'https://evil.example/content/oauth/callback' }))).toEqual(['redirect_uri']);
    expect(await keys(cardBody(CARDS.sms, newEmail(), { redirect_uri: 'http://sso.test/dev/partner/SIAP002/callback' }))).toEqual(['redirect_uri']);
    expect(await keys(cardBody(CARDS.sms, newEmail(), { scope: 'openid admin' }))).toEqual(['scope']);
    expect((await readMailbox(t.app)).length).toBe(before);
  });

  it('answers 205 for a reCAPTCHA token that does not verify, and sends nothing', async () => {
    const before = (await readMailbox(t.app)).length;
    for (const recaptcha_token of ['fail-x', '']) {
      const res = await card(cardBody(CARDS.sms, newEmail(), { recaptcha_token }));
      expect(res.statusCode).toBe(400);
      expect(res.json().result_code).toBe(205);
    }
    expect((await readMailbox(t.app)).length).toBe(before);
  });

  it('answers the card master\'s guides with 903 and 904', async () => {
    const info = await card(cardBody(CARDS.info, newEmail()));
    expect(info.statusCode).toBe(400);
    expect(info.json()).toEqual({ result_code: 903, result_message: 'ご入力のカードはWebでのご登録を受け付けておりません。ご案内をご確認ください。' });
    const chatbot = await card(cardBody(CARDS.chatbot, newEmail()));
    expect(chatbot.json()).toEqual({ result_code: 904, result_message: 'ご入力のカードのご登録については、チャットボットでご案内しております。' });
  });

  it('answers 902 for a card the card master does not know, and locks the number after 5 failures for 30 min', async () => {
    const email = newEmail();
    const wrong = [{ cvc: '999' }, { cc_month: '11' }, { cc_year: '2031' }, { cvc: '124' }];
    for (const over of wrong) expect((await card(cardBody(CARDS.pin, email, over))).json(), JSON.stringify(over)).toEqual(CARD_NOT_FOUND);
    expect((await card(cardBody(CARDS.pin, email, { cvc: '321' }))).json()).toEqual(LOCKED);
    // Locked: even the right security code is refused, and no register_token is issued.
    expect((await card(cardBody(CARDS.pin, email))).json()).toEqual(LOCKED);
    // Another card is not affected.
    expect((await card(cardBody(CARDS.pinBank, email))).json().result_code).toBe(0);
    t.clock.advance(LIMITS.signupLockMs - 1);
    expect((await card(cardBody(CARDS.pin, email))).json()).toEqual(LOCKED);
    t.clock.advance(1);
    expect((await card(cardBody(CARDS.pin, email))).json().result_code).toBe(0);
  });

  it('lets the right card through after fewer than 5 failures, and starts the count again', async () => {
    const email = newEmail();
    for (let i = 0; i < 4; i++) expect((await card(cardBody(CARDS.pin, email, { cvc: '999' }))).json()).toEqual(CARD_NOT_FOUND);
    expect((await card(cardBody(CARDS.pin, email))).json().result_code).toBe(0);
    for (let i = 0; i < 4; i++) expect((await card(cardBody(CARDS.pin, email, { cvc: '999' }))).json()).toEqual(CARD_NOT_FOUND);
  });

  it('counts parallel guesses at the security code atomically: only 5 reach the card master', async () => {
    const email = newEmail();
    const guesses = Array.from({ length: 20 }, (_, i) => card(cardBody(CARDS.pinBank, email, { cvc: String(2000 + i) })));
    const codes = (await Promise.all(guesses)).map((r) => r.json().result_code as number);
    expect(codes.filter((c) => c === 902)).toHaveLength(4);
    expect(codes.filter((c) => c === 203)).toHaveLength(16);
    expect((await card(cardBody(CARDS.pinBank, email))).json()).toEqual(LOCKED);
  });

  it('answers an e-mail that is already a member\'s exactly like a new one at the card step', async () => {
    const taken = await startSignup(t, CARDS.mail, 'demo.card@example.com');
    const fresh = await startSignup(t, CARDS.mail, newEmail());
    const shape = (b: Record<string, unknown>) => ({ ...b, register_token: '', email: '' });
    expect(shape(taken.body)).toEqual(shape(fresh.body));
  });

  it('never answers 500 for malformed bodies', async () => {
    for (const url of ENDPOINTS) {
      const bad = await t.app.inject({ method: 'POST', url, headers: { 'content-type': 'application/json' }, payload: '{bad' });
      expect(bad.statusCode, url).toBe(400);
      expect(bad.json().result_code, url).toBe(901);
      for (const payload of ['[]', '"x"', 'null', '{"register_token":{"a":1},"onetime_password":123456}']) {
        const odd = await t.app.inject({ method: 'POST', url, headers: { 'content-type': 'application/json' }, payload });
        expect(odd.statusCode, `${url} ${payload}`).toBe(400);
        expect(odd.json().result_code, `${url} ${payload}`).toBe(901);
      }
      const xml = await t.app.inject({ method: 'POST', url, headers: { 'content-type': 'text/xml' }, payload: '<a/>' });
      expect(xml.statusCode, url).toBe(415);
    }
  });
});
