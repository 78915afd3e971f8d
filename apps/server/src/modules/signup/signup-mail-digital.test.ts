import { beforeEach, describe, expect, it } from 'vitest';
import { LIMITS } from '@sso/contracts/constants';
import { withTestApp } from '../../test-support/test-app.ts';
import { DIALECTS } from '../../test-support/test-db.ts';
import { CARDS, codeFor, finishSignup, newEmail, post, recordingCardMaster, smsToEmailStep, startSignup } from '../../test-support/signup-kit.ts';

const OK = { result_code: 0, result_message: '正常に処理しました。' };
const FLOW_EXPIRED = {
  result_code: 300,
  result_message: '登録の有効期限が切れたか、手続きの順序が正しくありません。お手数ですが最初からやり直してください。',
};

describe.each(DIALECTS)('paperless-statement choice of the card sign-up (%s)', (dialect) => {
  const recorder = recordingCardMaster();
  const t = withTestApp(dialect, {}, { cardMaster: recorder.cardMaster });
  beforeEach(() => t.clock.advance(LIMITS.signupLockMs));

  const choose = (register_token: string, mail_digital: unknown) => post(t, '/api/signup/mail/digital', { register_token, mail_digital });
  const subuserChoice = async (esid: string) =>
    (await t.testDb.db.kysely.selectFrom('sub_users').select('mail_digital').where('esid', '=', esid).executeTakeFirstOrThrow()).mail_digital;
  const flowChoice = async (email: string) =>
    (await t.testDb.db.kysely.selectFrom('signup_flows').select('mail_digital').where('email', '=', email).executeTakeFirstOrThrow()).mail_digital;
  const choicesFor = (esid: string) => recorder.statementChoices.filter((c) => c.esid === esid);

  it('stores the choice at every step before terms_accept; the last one lands on the card and reaches the card master', async () => {
    const email = newEmail();
    const { token } = await startSignup(t, CARDS.sms, email);
    expect((await choose(token, 0)).json()).toEqual(OK);
    expect(await flowChoice(email)).toBe(0);
    expect((await post(t, '/api/signup/sms', { register_token: token, onetime_password: await codeFor(t, CARDS.sms.mobile) })).json().result_code).toBe(0);
    expect((await choose(token, 1)).json()).toEqual(OK);
    expect((await post(t, '/api/signup/otp', { register_token: token, onetime_password: await codeFor(t, email) })).json().result_code).toBe(0);
    // At the terms step too: the member does not exist yet.
    expect((await choose(token, 1)).json()).toEqual(OK);
    expect(await flowChoice(email)).toBe(1);
    expect(choicesFor('ES1000000001')).toEqual([]);

    await finishSignup(t, token, email);
    expect(await subuserChoice('ES1000000001')).toBe(1);
    await expect.poll(() => choicesFor('ES1000000001')).toEqual([{ esid: 'ES1000000001', digital: true }]);
  });

  it('sends paper (0) as not digital, through the PIN path', async () => {
    const email = newEmail();
    const { token } = await startSignup(t, CARDS.pin, email);
    expect((await choose(token, 0)).json()).toEqual(OK);
    expect((await post(t, '/api/signup/pin', { register_token: token, pin: CARDS.pin.pin })).json().result_code).toBe(0);
    expect((await post(t, '/api/signup/otp', { register_token: token, onetime_password: await codeFor(t, email) })).json().result_code).toBe(0);
    await finishSignup(t, token, email);
    expect(await subuserChoice('ES1000000003')).toBe(0);
    await expect.poll(() => choicesFor('ES1000000003')).toEqual([{ esid: 'ES1000000003', digital: false }]);
  });

  it('tells the card master nothing when no choice was made', async () => {
    const email = newEmail();
    const token = await smsToEmailStep(t, email, CARDS.house);
    expect((await post(t, '/api/signup/otp', { register_token: token, onetime_password: await codeFor(t, email) })).json().result_code).toBe(0);
    await finishSignup(t, token, email);
    expect(await subuserChoice('ES1000000005')).toBeNull();
    // terms_accept's background work has run by the time a later request is answered; give it a moment anyway.
    await new Promise((r) => setTimeout(r, 50));
    expect(choicesFor('ES1000000005')).toEqual([]);
  });

  it('answers 300 once the member exists, for an unknown register_token and for an expired flow', async () => {
    const email = newEmail();
    const { token } = await startSignup(t, CARDS.mail, email);
    expect((await post(t, '/api/signup/otp', { register_token: token, onetime_password: await codeFor(t, email) })).json().result_code).toBe(0);
    expect((await post(t, '/api/signup/terms_accept', { register_token: token, client_id: 'SIAP009' })).json().result_code).toBe(0);
    // State authorize: the card is linked already, so a choice now could never reach it.
    expect((await choose(token, 1)).json()).toEqual(FLOW_EXPIRED);
    expect(await subuserChoice('ES1000000002')).toBeNull();
    expect((await choose('unknown-register-token', 1)).json()).toEqual(FLOW_EXPIRED);

    const late = await startSignup(t, CARDS.pinBank, newEmail());
    t.clock.advance(LIMITS.signupFlowTtlMs);
    expect((await choose(late.token, 1)).json()).toEqual(FLOW_EXPIRED);
  });

  it('answers 901 naming the field for malformed bodies, never 500', async () => {
    const { token } = await startSignup(t, CARDS.pinBank, newEmail());
    for (const value of [2, -1, '1', true, null, 0.5, [1]]) {
      const res = await choose(token, value);
      expect(res.statusCode, String(value)).toBe(400);
      expect(res.json()).toMatchObject({ result_code: 901, validation_errors: [{ key: 'mail_digital', message: '入力してください' }] });
    }
    const noToken = await post(t, '/api/signup/mail/digital', { mail_digital: 1 });
    expect(noToken.json()).toMatchObject({ result_code: 901, validation_errors: [{ key: 'register_token' }] });
    const longToken = await choose('x'.repeat(257), 1);
    expect(longToken.json()).toMatchObject({ result_code: 901, validation_errors: [{ key: 'register_token' }] });
    for (const payload of ['not json', '[1]', '']) {
      const res = await t.app.inject({ method: 'POST', url: '/api/signup/mail/digital', headers: { 'content-type': 'application/json' }, payload });
      expect(res.statusCode, payload).toBeLessThan(500);
      expect(res.statusCode, payload).toBeGreaterThanOrEqual(400);
    }
  });
});
