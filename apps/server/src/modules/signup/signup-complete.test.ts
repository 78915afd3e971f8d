import { beforeEach, describe, expect, it } from 'vitest';
import { LIMITS } from '@sso/contracts/constants';
import { sha256Base64Url } from '../../lib/secrets.ts';
import { withTestApp } from '../../test-support/test-app.ts';
import { readMailbox } from '../../test-support/mailbox.ts';
import { DIALECTS } from '../../test-support/test-db.ts';
import {
  CARDS,
  cardBody,
  codeFor,
  countUsers,
  finishSignup,
  newEmail,
  post,
  postSignupAuthorize,
  smsToEmailStep,
  startSignup,
} from '../../test-support/signup-kit.ts';

const location = (res: { headers: Record<string, unknown> }) => new URL(String(res.headers.location));

describe.each(DIALECTS)('terms_accept and the authorize hand-off (%s)', (dialect) => {
  const t = withTestApp(dialect);
  beforeEach(() => t.clock.advance(LIMITS.signupLockMs));

  const otp = (register_token: string, onetime_password: string) => post(t, '/api/signup/otp', { register_token, onetime_password });
  const terms = (register_token: string, client_id = 'SIAP009') => post(t, '/api/signup/terms_accept', { register_token, client_id });
  /** A card at the terms step by the SMS or PIN path, with the e-mail given. */
  const toTerms = async (card: 'sms' | 'house' | 'pin' | 'pinBank', email: string) => {
    let token: string;
    if (card === 'sms' || card === 'house') {
      token = await smsToEmailStep(t, email, CARDS[card]);
    } else {
      token = (await startSignup(t, CARDS[card], email)).token;
      const a_no = card === 'pinBank' ? { a_no: CARDS.pinBank.aNo } : {};
      expect((await post(t, '/api/signup/pin', { pin: '1234', ...a_no, register_token: token })).json().result_code).toBe(0);
    }
    expect((await otp(token, await codeFor(t, email))).json().result_code).toBe(0);
    return token;
  };

  it('refuses the hand-off out of order, for another client or PKCE challenge, and a finished register_token', async () => {
    const email = newEmail();
    const token = await toTerms('sms', email);
    // Before terms_accept: access_denied by redirect, no code.
    const early = location(await postSignupAuthorize(t, token));
    expect(early.searchParams.get('error')).toBe('access_denied');
    expect(early.searchParams.get('code')).toBeNull();
    expect((await terms(token, 'SIAP002')).json().result_code).toBe(300);
    expect((await terms(token)).json()).toMatchObject({ result_code: 0, register_token: token });

    // Never redirected to a redirect URI that is not registered for the client.
    for (const over of [{ redirect_uri: 'https://evil.example/cb' }, { client_id: 'SIAP999' }] as Record<string, string>[]) {
      const res = await postSignupAuthorize(t, token, over);
      expect(res.statusCode).toBe(400);
      expect(res.headers.location).toBeUndefined();
      expect(res.body).toContain('URLをご確認ください。');
    }
    const other = sha256Base64Url('another-verifier-another-verifier-another-verifier');
    const mismatches = [
      { code_challenge: other },
      { client_id: 'SIAP002', redirect_uri: 'http://sso.test/dev/partner/SIAP002/callback' },
      { code_challenge_method: 'plain' },
    ] as Record<string, string>[];
    for (const over of mismatches) {
      const loc = location(await postSignupAuthorize(t, token, over));
      expect(loc.searchParams.get('error'), JSON.stringify(over)).toBe('access_denied');
      expect(loc.searchParams.get('code')).toBeNull();
    }
    const noToken = await t.app.inject({
      method: 'POST',
      url: `/api/signup/authorize?client_id=SIAP009&redirect_uri=${encodeURIComponent('http://sso.test/content/oauth/callback')}&state=s`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: '',
    });
    expect(location(noToken).searchParams.get('error')).toBe('access_denied');

    // The refusals above did not spend the flow: the right request gets the code, once.
    const ok = location(await postSignupAuthorize(t, token));
    expect(ok.searchParams.get('code')).toBeTruthy();
    expect(ok.searchParams.get('iss')).toBe('http://sso.test');
    const again = location(await postSignupAuthorize(t, token));
    expect(again.searchParams.get('error')).toBe('access_denied');
    expect((await terms(token)).json().result_code).toBe(300);
    expect((await otp(token, '123456')).json().result_code).toBe(300);
  });

  it('answers 902 for a card already linked to a member, at the card step', async () => {
    const res = await post(t, '/api/signup/card', cardBody(CARDS.sms, newEmail()));
    expect(res.json()).toEqual({ result_code: 902, result_message: 'このカードは既にメンバーIDに登録されています。ログインしてご利用ください。' });
  });

  it('creates exactly one member from parallel right e-mail codes, terms_accepts and authorizes', async () => {
    const email = newEmail();
    const { token } = await startSignup(t, CARDS.mail, email);
    const code = await codeFor(t, email);
    const codes = (await Promise.all(Array.from({ length: 8 }, () => otp(token, code)))).map((r) => r.json().result_code as number);
    expect(codes.filter((c) => c === 0)).toHaveLength(1);
    const accepted = (await Promise.all(Array.from({ length: 8 }, () => terms(token)))).map((r) => r.json().result_code as number);
    expect(accepted.filter((c) => c === 0)).toHaveLength(1);
    expect(accepted.filter((c) => c === 300)).toHaveLength(7);
    expect(await countUsers(t, email)).toBe(1);
    const linked = await t.testDb.db.kysely.selectFrom('sub_users').select('user_id').where('card_number_mask', '=', '5252-****-****-0002').execute();
    expect(linked).toHaveLength(1);
    const handOffs = await Promise.all(Array.from({ length: 8 }, () => postSignupAuthorize(t, token)));
    const issued = handOffs.map((r) => location(r).searchParams.get('code')).filter(Boolean);
    expect(issued).toHaveLength(1);
    expect(handOffs.every((r) => r.statusCode === 303)).toBe(true);
  });

  it('moves a flow past the SMS step exactly once under parallel right codes', async () => {
    const email = newEmail();
    const { token } = await startSignup(t, CARDS.house, email);
    const code = await codeFor(t, CARDS.house.mobile);
    const answers = await Promise.all(Array.from({ length: 8 }, () => post(t, '/api/signup/sms', { onetime_password: code, register_token: token })));
    expect(answers.filter((r) => r.json().result_code === 0)).toHaveLength(1);
    // One e-mail code went out and only it was counted: the member can still have it resent.
    expect((await readMailbox(t.app)).filter((m) => m.to === email)).toHaveLength(1);
    for (let i = 0; i < 4; i++) expect((await post(t, '/api/otp/resend', { register_token: token })).json().result_code).toBe(0);
    await otp(token, await codeFor(t, email));
    await finishSignup(t, token, email);
  });

  it('answers 902 when another sign-up took the e-mail between the e-mail code and the terms', async () => {
    const email = newEmail();
    const first = await toTerms('pin', email);
    const second = await toTerms('pinBank', email);
    expect((await terms(first)).json().result_code).toBe(0);
    expect((await terms(second)).json()).toEqual({
      result_code: 902,
      result_message:
        'このメールアドレスは既にメンバーIDに登録されています。ログインするか、パスワードをお忘れの方はパスワードの再設定を行ってください。',
    });
    expect(location(await postSignupAuthorize(t, second)).searchParams.get('error')).toBe('access_denied');
    expect(await countUsers(t, email)).toBe(1);
  });

  it('answers 902 card already linked when the same card finished another sign-up first', async () => {
    const one = newEmail();
    const two = newEmail();
    const x = await toTerms('pinBank', one);
    const y = await toTerms('pinBank', two);
    expect((await terms(x)).json().result_code).toBe(0);
    expect((await terms(y)).json()).toEqual({ result_code: 902, result_message: 'このカードは既にメンバーIDに登録されています。ログインしてご利用ください。' });
    expect(await countUsers(t, two)).toBe(0);
  });
});
