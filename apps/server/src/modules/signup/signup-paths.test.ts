import { beforeEach, describe, expect, it } from 'vitest';
import { LIMITS } from '@sso/contracts/constants';
import { signupStepResponseSchema } from '@sso/contracts/signup';
import { userAttributeResponseSchema } from '@sso/contracts/user';
import { bearer, withTestApp } from '../../test-support/test-app.ts';
import { readMailbox } from '../../test-support/mailbox.ts';
import { DIALECTS } from '../../test-support/test-db.ts';
import { purgeExpired } from '../../db/maintenance.ts';
import { verifyPassword } from '../../lib/passwords.ts';
import { lookupDigest, sha256 } from '../../lib/secrets.ts';
import { AUTHORIZE_PARAMS, CARDS, cardBody, codeFor, finishSignup, newEmail, post, startSignup } from '../../test-support/signup-kit.ts';

const WEB_TERMS = ['ServiceOnMemberId', 'PersonalInfoOnMemberId'];

describe.each(DIALECTS)('card sign-up paths, end to end (%s)', (dialect) => {
  const t = withTestApp(dialect);
  // Every test starts after the previous one's locks and message windows have lapsed.
  beforeEach(() => t.clock.advance(LIMITS.signupLockMs));

  const member = async (email: string) =>
    t.testDb.db.kysely.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirstOrThrow();
  const attributes = async (access: string) =>
    userAttributeResponseSchema.parse((await t.app.inject({ method: 'POST', url: '/api/user/attribute', headers: bearer(access) })).json());

  it('SMS path: card, SMS code to the holder, e-mail code, terms, authorize; the member is a card member', async () => {
    const email = newEmail();
    const { token, body } = await startSignup(t, CARDS.sms, email);
    expect(body).toEqual({
      result_code: 0,
      result_message: '正常に処理しました。',
      register_token: token,
      destination_to: 'OtpSMS',
      tel: '090-****-0001',
      terms: WEB_TERMS,
      ...AUTHORIZE_PARAMS,
    });
    const sms = (await readMailbox(t.app))[0]!;
    expect(sms).toMatchObject({ kind: 'sms', to: CARDS.sms.mobile });
    const smsStep = await post(t, '/api/signup/sms', { onetime_password: await codeFor(t, CARDS.sms.mobile), register_token: token });
    expect(signupStepResponseSchema.parse(smsStep.json())).toMatchObject({ result_code: 0, destination_to: 'email', email, register_token: token });
    const mail = (await readMailbox(t.app))[0]!;
    expect(mail).toMatchObject({ kind: 'mail', to: email, subject: expect.stringContaining('ワンタイムパスワード') });
    const otpStep = await post(t, '/api/signup/otp', { onetime_password: await codeFor(t, email), register_token: token });
    expect(signupStepResponseSchema.parse(otpStep.json())).toMatchObject({ result_code: 0, terms: WEB_TERMS });

    const access = await finishSignup(t, token, email);
    expect(await attributes(access)).toMatchObject({ is_user_saison_card: true, is_user_open: false });
    const row = await member(email);
    expect(row).toMatchObject({ member_type: 'card', status: 'active', tel: CARDS.sms.mobile });
    expect(row.password_hash).toMatch(/^\$argon2id\$/);
    const card = await t.testDb.db.kysely.selectFrom('sub_users').selectAll().where('user_id', '=', row.id).execute();
    expect(card).toEqual([expect.objectContaining({ status: 'active', card_number_mask: '4541-****-****-0001', card_brand: 'VISA' })]);
    const terms = await t.testDb.db.kysely.selectFrom('term_acceptances').select('term_key').where('user_id', '=', row.id).orderBy('term_key').execute();
    expect(terms.map((r) => r.term_key)).toEqual([...WEB_TERMS].sort());
    const events = await t.testDb.db.kysely.selectFrom('activity_log').select('event').where('user_id', '=', row.id).execute();
    expect(events.map((e) => e.event).sort()).toEqual(['login', 'signup']);
    // The new member logs in with the e-mail and the password of the card step.
    const login = await post(t, '/api/auth/login', { id: email, password: 'Signup-2030', recaptcha_token: 'dev', client_id: 'SIAP009' });
    expect(login.json()).toMatchObject({ result_code: 0, terms: [] });
  });

  it('e-mail path: the code goes to the e-mail entered (lower-cased), then terms and authorize', async () => {
    const email = newEmail();
    const { token, body } = await startSignup(t, CARDS.mail, email.toUpperCase());
    expect(body).toMatchObject({ destination_to: 'OtpEmail', email, terms: WEB_TERMS });
    expect(body.tel).toBeUndefined();
    const otp = await post(t, '/api/signup/otp', { onetime_password: await codeFor(t, email), register_token: token });
    expect(otp.json()).toMatchObject({ result_code: 0 });
    const access = await finishSignup(t, token, email);
    expect((await attributes(access)).is_user_saison_card).toBe(true);
    expect((await member(email)).tel).toBeNull();
  });

  it('PIN path: the PIN, then the e-mail code; no message before the PIN', async () => {
    const email = newEmail();
    const before = (await readMailbox(t.app)).length;
    const { token, body } = await startSignup(t, CARDS.pin, email);
    expect(body).toMatchObject({ destination_to: 'Pin', terms: WEB_TERMS });
    expect((await readMailbox(t.app)).length).toBe(before);
    const wrong = await post(t, '/api/signup/pin', { pin: '4321', register_token: token });
    expect(wrong.json()).toEqual({ result_code: 902, result_message: '暗証番号または口座番号が正しくありません。もう一度ご入力ください。' });
    const pin = await post(t, '/api/signup/pin', { pin: CARDS.pin.pin, register_token: token });
    expect(pin.json()).toMatchObject({ result_code: 0, destination_to: 'email', email });
    const otp = await post(t, '/api/signup/otp', { onetime_password: await codeFor(t, email), register_token: token });
    expect(otp.json().result_code).toBe(0);
    await finishSignup(t, token, email);
  });

  it('PIN with the bank account: the last 4 digits are required and must match', async () => {
    const email = newEmail();
    const { token } = await startSignup(t, CARDS.pinBank, email);
    for (const a_no of [undefined, '5677', '0678']) {
      const res = await post(t, '/api/signup/pin', { pin: CARDS.pinBank.pin, ...(a_no ? { a_no } : {}), register_token: token });
      expect(res.json(), String(a_no)).toMatchObject({ result_code: 902 });
    }
    const ok = await post(t, '/api/signup/pin', { pin: CARDS.pinBank.pin, a_no: CARDS.pinBank.aNo, register_token: token });
    expect(ok.json()).toMatchObject({ result_code: 0, destination_to: 'email' });
    await post(t, '/api/signup/otp', { onetime_password: await codeFor(t, email), register_token: token });
    await finishSignup(t, token, email);
  });

  it('house card: no security code, SMS to the holder; a security code given for it is 901', async () => {
    const email = newEmail();
    const refused = await post(t, '/api/signup/card', cardBody(CARDS.house, email, { cvc: '123' }));
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ result_code: 901, validation_errors: [{ key: 'cvc' }] });
    const { token, body } = await startSignup(t, CARDS.house, email);
    expect(body).toMatchObject({ destination_to: 'OtpSMS', tel: '090-****-0005' });
    const sms = await post(t, '/api/signup/sms', { onetime_password: await codeFor(t, CARDS.house.mobile), register_token: token });
    expect(sms.json().result_code).toBe(0);
    await post(t, '/api/signup/otp', { onetime_password: await codeFor(t, email), register_token: token });
    const access = await finishSignup(t, token, email);
    expect((await attributes(access)).is_user_saison_card).toBe(true);
    expect((await member(email)).tel).toBe(CARDS.house.mobile);
  });

});

describe.each(DIALECTS)('card sign-up secrets at rest (%s)', (dialect) => {
  // Its own database: the paths above have linked the demo cards.
  const t = withTestApp(dialect);

  it('stores no OTP, PIN, card number or register_token in clear', async () => {
    const sms = await startSignup(t, CARDS.sms, newEmail());
    const smsCode = await codeFor(t, CARDS.sms.mobile);
    const pin = await startSignup(t, CARDS.pinBank, newEmail());
    const db = t.testDb.db.kysely;
    const flows = await db.selectFrom('signup_flows').selectAll().execute();
    const verifications = await db.selectFrom('verifications').selectAll().execute();
    // Text columns only: a 6-digit code could turn up inside a millisecond timestamp by chance.
    const text = JSON.stringify([...flows, ...verifications].map((r) => Object.values(r).filter((v) => typeof v === 'string')));
    for (const secret of [smsCode, sms.token, pin.token, CARDS.sms.cardnumber, CARDS.pinBank.cardnumber, 'Signup-2030']) {
      expect(text, secret).not.toContain(secret);
    }
    const pinFlow = flows.find((f) => f.token_hash === sha256(pin.token))!;
    expect(pinFlow.card_hash).toBe(lookupDigest(CARDS.pinBank.cardnumber));
    expect(JSON.parse(pinFlow.card_json)).not.toHaveProperty('pin');
    expect(pinFlow.card_json).not.toMatch(/1234|5678/);
    const pinSecret = verifications.find((v) => v.subject === pinFlow.id)!;
    expect(pinSecret.secret_hash).toMatch(/^\$argon2id\$/);
    expect(await verifyPassword(pinSecret.secret_hash, '1234:5678')).toBe(true);
    const smsFlow = flows.find((f) => f.token_hash === sha256(sms.token))!;
    const smsSecret = verifications.find((v) => v.subject === smsFlow.id)!;
    expect(await verifyPassword(smsSecret.secret_hash, smsCode)).toBe(true);
  });

  it('purges flows and codes once expired, and keeps live ones', async () => {
    const db = t.testDb.db.kysely;
    const start = t.clock.now();
    await startSignup(t, CARDS.mail, newEmail());
    t.clock.advance(LIMITS.signupFlowTtlMs - LIMITS.otpTtlMs / 2);
    const live = await startSignup(t, CARDS.mail, newEmail());
    // Just after the old flow's end: the old flow and code are over, the live ones are not.
    await purgeExpired(db, start + LIMITS.signupFlowTtlMs + 1);
    const flows = await db.selectFrom('signup_flows').select(['id', 'token_hash']).execute();
    expect(flows.map((f) => f.token_hash)).toEqual([sha256(live.token)]);
    const codes = await db.selectFrom('verifications').select('subject').execute();
    expect(codes.map((c) => c.subject)).toEqual([flows[0]!.id]);
  });
});
