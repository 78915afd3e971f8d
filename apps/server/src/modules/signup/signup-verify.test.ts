import { beforeEach, describe, expect, it } from 'vitest';
import { LIMITS } from '@sso/contracts/constants';
import { withTestApp } from '../../test-support/test-app.ts';
import { readMailbox } from '../../test-support/mailbox.ts';
import { DIALECTS } from '../../test-support/test-db.ts';
import { CARDS, cardBody, codeFor, newEmail, post, smsToEmailStep, startSignup } from '../../test-support/signup-kit.ts';

const OTP_WRONG = { result_code: 902, result_message: 'ワンタイムパスワードが正しくありません。もう一度ご入力ください。' };
const OTP_EXPIRED = { result_code: 902, result_message: 'ワンタイムパスワードの有効期限が切れています。再送信してください。' };
const LOCKED = { result_code: 203, result_message: '入力回数の上限を超えたため、しばらくの間ご登録いただけません。時間をおいて再度お試しください。' };
const FLOW_EXPIRED = {
  result_code: 300,
  result_message: '登録の有効期限が切れたか、手続きの順序が正しくありません。お手数ですが最初からやり直してください。',
};

/** A code that is certainly not `code`. */
const not = (code: string) => String((Number(code) + 1) % 10 ** 6).padStart(6, '0');

describe.each(DIALECTS)('sign-up OTP and PIN checks (%s)', (dialect) => {
  const t = withTestApp(dialect);
  beforeEach(() => t.clock.advance(LIMITS.signupLockMs));

  const sms = (register_token: string, onetime_password: string) => post(t, '/api/signup/sms', { register_token, onetime_password });
  const otp = (register_token: string, onetime_password: string) => post(t, '/api/signup/otp', { register_token, onetime_password });
  /** The codes sent to a recipient, newest first. */
  const codesFor = async (to: string) => (await readMailbox(t.app)).filter((m) => m.to === to).map((m) => /\b\d{6}\b/.exec(m.text)![0]);

  it('counts wrong codes per card across register_tokens: 902 four times, then 203, for 30 min', async () => {
    const a = await startSignup(t, CARDS.sms, newEmail());
    const b = await startSignup(t, CARDS.sms, newEmail());
    const [codeB, codeA] = await codesFor(CARDS.sms.mobile);
    for (let i = 0; i < 4; i++) expect((await sms(a.token, not(codeA!))).json()).toEqual(OTP_WRONG);
    expect((await sms(a.token, not(codeA!))).json()).toEqual(LOCKED);
    expect((await sms(a.token, codeA!)).json()).toEqual(LOCKED);
    // The lock is the card's: the other register_token is locked too, and no new one is issued.
    expect((await sms(b.token, codeB!)).json()).toEqual(LOCKED);
    expect((await post(t, '/api/signup/card', cardBody(CARDS.sms, newEmail()))).json()).toEqual(LOCKED);
    expect((await post(t, '/api/sms/resend', { register_token: b.token })).json()).toEqual(LOCKED);
    t.clock.advance(LIMITS.signupLockMs - 1);
    expect((await sms(b.token, codeB!)).json()).toEqual(LOCKED);
    t.clock.advance(1);
    // Lifted; b's code has expired meanwhile, a new one works.
    expect((await sms(b.token, codeB!)).json()).toEqual(OTP_EXPIRED);
    expect((await post(t, '/api/sms/resend', { register_token: b.token })).json().result_code).toBe(0);
    expect((await sms(b.token, await codeFor(t, CARDS.sms.mobile))).json()).toMatchObject({ result_code: 0, destination_to: 'email' });
  });

  it('clears the card\'s count on a right code, and allows each code at most 5 tries', async () => {
    const a = await startSignup(t, CARDS.house, newEmail());
    const b = await startSignup(t, CARDS.house, newEmail());
    const [codeB, codeA] = await codesFor(CARDS.house.mobile);
    for (let i = 0; i < 3; i++) expect((await sms(a.token, not(codeA!))).json()).toEqual(OTP_WRONG);
    expect((await sms(b.token, codeB!)).json().result_code).toBe(0);
    // The card's count starts again, but a's code has 2 tries left.
    for (let i = 0; i < 2; i++) expect((await sms(a.token, not(codeA!))).json()).toEqual(OTP_WRONG);
    expect((await sms(a.token, codeA!)).json()).toEqual(OTP_EXPIRED);
  });

  it('expires a code after 10 minutes', async () => {
    const email = newEmail();
    const { token } = await startSignup(t, CARDS.mail, email);
    const code = await codeFor(t, email);
    t.clock.advance(LIMITS.otpTtlMs);
    expect((await otp(token, code)).json()).toEqual(OTP_EXPIRED);
    expect((await post(t, '/api/otp/resend', { register_token: token })).json().result_code).toBe(0);
    expect((await otp(token, await codeFor(t, email))).json().result_code).toBe(0);
  });

  it('accepts a code just before it expires', async () => {
    const email = newEmail();
    const { token } = await startSignup(t, CARDS.mail, email);
    t.clock.advance(LIMITS.otpTtlMs - 1);
    expect((await otp(token, await codeFor(t, email))).json().result_code).toBe(0);
  });

  it('answers 300 for a step called out of order, an unknown token and an expired flow', async () => {
    const email = newEmail();
    const { token } = await startSignup(t, CARDS.sms, email);
    const code = await codeFor(t, CARDS.sms.mobile);
    expect((await otp(token, code)).json()).toEqual(FLOW_EXPIRED);
    expect((await post(t, '/api/signup/pin', { pin: '1234', register_token: token })).json()).toEqual(FLOW_EXPIRED);
    expect((await post(t, '/api/signup/terms_accept', { register_token: token, client_id: 'SIAP009' })).json()).toEqual(FLOW_EXPIRED);
    expect((await post(t, '/api/otp/resend', { register_token: token })).json()).toEqual(FLOW_EXPIRED);
    expect((await sms('no-such-token', code)).json()).toEqual(FLOW_EXPIRED);
    expect((await sms(token, code)).json().result_code).toBe(0);
    // The SMS step is behind it now; terms_accept still comes after the e-mail code.
    expect((await sms(token, code)).json()).toEqual(FLOW_EXPIRED);
    expect((await post(t, '/api/sms/resend', { register_token: token })).json()).toEqual(FLOW_EXPIRED);
    expect((await post(t, '/api/signup/terms_accept', { register_token: token, client_id: 'SIAP009' })).json()).toEqual(FLOW_EXPIRED);
    t.clock.advance(LIMITS.signupFlowTtlMs);
    expect((await otp(token, await codeFor(t, email))).json()).toEqual(FLOW_EXPIRED);
  });

  it('answers 300 with HTTP 400 (not 401), and a wrong code does not cost the flow', async () => {
    const res = await sms('unknown', '123456');
    expect(res.statusCode).toBe(400);
    const { token } = await startSignup(t, CARDS.pin, newEmail());
    expect((await post(t, '/api/signup/pin', { pin: '0000', register_token: token })).json().result_code).toBe(902);
    expect((await post(t, '/api/signup/pin', { pin: '1234', register_token: token })).json().result_code).toBe(0);
  });

  it('locks the PIN check after 5 wrong PINs, across register_tokens', async () => {
    const a = await startSignup(t, CARDS.pin, newEmail());
    const b = await startSignup(t, CARDS.pin, newEmail());
    const pin = (register_token: string, value: string) => post(t, '/api/signup/pin', { register_token, pin: value });
    for (const value of ['0000', '1111', '2222']) expect((await pin(a.token, value)).json().result_code).toBe(902);
    expect((await pin(b.token, '3333')).json().result_code).toBe(902);
    expect((await pin(b.token, '4444')).json()).toEqual(LOCKED);
    expect((await pin(a.token, '1234')).json()).toEqual(LOCKED);
  });

  it('answers 901 for a code or PIN of the wrong form, without counting it', async () => {
    const { token } = await startSignup(t, CARDS.mail, newEmail());
    for (const onetime_password of ['12345', '1234567', 'abcdef', '']) {
      const res = await otp(token, onetime_password);
      expect(res.json(), onetime_password).toMatchObject({ result_code: 901, validation_errors: [expect.objectContaining({ key: 'onetime_password' })] });
    }
    expect((await post(t, '/api/signup/otp', { onetime_password: '123456' })).json().validation_errors).toEqual([
      { key: 'register_token', message: '入力してください' },
    ]);
    const pin = await post(t, '/api/signup/pin', { pin: '12a4', a_no: '12345', register_token: token });
    expect(pin.json().validation_errors.map((e: { key: string }) => e.key)).toEqual(['pin', 'a_no']);
  });

  it('answers an e-mail that is already a member\'s only after its code, with 902, and ends the flow', async () => {
    const email = 'demo.card@example.com';
    const { token } = await startSignup(t, CARDS.mail, 'Demo.Card@example.com');
    const res = await otp(token, await codeFor(t, email));
    expect(res.json()).toEqual({
      result_code: 902,
      result_message:
        'このメールアドレスは既にメンバーIDに登録されています。ログインするか、パスワードをお忘れの方はパスワードの再設定を行ってください。',
    });
    expect((await post(t, '/api/signup/terms_accept', { register_token: token, client_id: 'SIAP009' })).json()).toEqual(FLOW_EXPIRED);
    expect((await post(t, '/api/otp/resend', { register_token: token })).json()).toEqual(FLOW_EXPIRED);
  });

  it('takes the same path to the e-mail step for the SMS and house cards', async () => {
    const email = newEmail();
    const token = await smsToEmailStep(t, email, CARDS.house);
    expect((await otp(token, not(await codeFor(t, email)))).json()).toEqual(OTP_WRONG);
  });
});
