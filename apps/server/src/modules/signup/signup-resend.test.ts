import { beforeEach, describe, expect, it } from 'vitest';
import { LIMITS } from '@sso/contracts/constants';
import { sha256 } from '../../lib/secrets.ts';
import { withTestApp } from '../../test-support/test-app.ts';
import { readMailbox } from '../../test-support/mailbox.ts';
import { DIALECTS } from '../../test-support/test-db.ts';
import { CARDS, cardBody, codeFor, newEmail, post, smsToEmailStep, startSignup } from '../../test-support/signup-kit.ts';

const RESENT = { result_code: 0, result_message: 'ワンタイムパスワードを再送信しました。' };
const RESEND_LIMIT = { result_code: 902, result_message: '再送信の回数が上限に達しました。しばらく経ってから再度お試しください。' };

describe.each(DIALECTS)('POST /api/otp/resend and /api/sms/resend (%s)', (dialect) => {
  const t = withTestApp(dialect);
  beforeEach(() => t.clock.advance(LIMITS.messageWindowMs));

  const resend = (kind: 'otp' | 'sms', register_token: string) => post(t, `/api/${kind}/resend`, { register_token });
  const sentTo = async (to: string) => (await readMailbox(t.app)).filter((m) => m.to === to).length;

  it('sends a new code that replaces the old one', async () => {
    const email = newEmail();
    const { token } = await startSignup(t, CARDS.mail, email);
    const old = await codeFor(t, email);
    expect((await resend('otp', token)).json()).toEqual(RESENT);
    expect(await sentTo(email)).toBe(2);
    const fresh = await codeFor(t, email);
    if (fresh !== old) expect((await post(t, '/api/signup/otp', { onetime_password: old, register_token: token })).json().result_code).toBe(902);
    expect((await post(t, '/api/signup/otp', { onetime_password: fresh, register_token: token })).json().result_code).toBe(0);
  });

  it('allows 5 messages per recipient in 30 minutes, the first send included, then 902 until the window ends', async () => {
    const email = newEmail();
    const { token } = await startSignup(t, CARDS.mail, email);
    for (let i = 0; i < 4; i++) expect((await resend('otp', token)).json()).toEqual(RESENT);
    expect((await resend('otp', token)).json()).toEqual(RESEND_LIMIT);
    expect(await sentTo(email)).toBe(5);
    t.clock.advance(LIMITS.messageWindowMs - 1);
    expect((await resend('otp', token)).json()).toEqual(RESEND_LIMIT);
    t.clock.advance(1);
    expect((await resend('otp', token)).json()).toEqual(RESENT);
    expect(await sentTo(email)).toBe(6);
    expect((await post(t, '/api/signup/otp', { onetime_password: await codeFor(t, email), register_token: token })).json().result_code).toBe(0);
  });

  it('counts per recipient across sign-ups: a sixth card step to the same mobile is refused and sends nothing', async () => {
    for (let i = 0; i < 5; i++) await startSignup(t, CARDS.sms, newEmail());
    const sixth = await post(t, '/api/signup/card', cardBody(CARDS.sms, newEmail()));
    expect(sixth.json()).toEqual(RESEND_LIMIT);
    expect(await sentTo(CARDS.sms.mobile)).toBe(5);
  });

  it('refuses the e-mail code over the limit at the SMS step, and leaves the flow at the SMS step', async () => {
    const email = newEmail();
    for (let i = 0; i < 5; i++) await startSignup(t, CARDS.mail, email);
    const { token } = await startSignup(t, CARDS.house, email);
    const code = await codeFor(t, CARDS.house.mobile);
    const sms = () => post(t, '/api/signup/sms', { onetime_password: code, register_token: token });
    expect((await sms()).json()).toEqual(RESEND_LIMIT);
    expect(await sentTo(email)).toBe(5);
    // The SMS code was not used up by the refusal.
    t.clock.advance(LIMITS.otpTtlMs - 1);
    expect((await sms()).json()).toEqual(RESEND_LIMIT);
    t.clock.advance(LIMITS.messageWindowMs - LIMITS.otpTtlMs + 1);
    // The window has ended; the SMS code has expired meanwhile, a resent one passes.
    expect((await resend('sms', token)).json()).toEqual(RESENT);
    const fresh = await codeFor(t, CARDS.house.mobile);
    expect((await post(t, '/api/signup/sms', { onetime_password: fresh, register_token: token })).json()).toMatchObject({ result_code: 0, email });
    expect(await sentTo(email)).toBe(6);
  });

  it('resends the SMS in the SMS step and the mail in the e-mail step only', async () => {
    const email = newEmail();
    const { token } = await startSignup(t, CARDS.house, email);
    expect((await resend('otp', token)).json().result_code).toBe(300);
    expect((await resend('sms', token)).json()).toEqual(RESENT);
    expect((await post(t, '/api/signup/sms', { onetime_password: await codeFor(t, CARDS.house.mobile), register_token: token })).json().result_code).toBe(0);
    expect((await resend('sms', token)).json().result_code).toBe(300);
    expect((await resend('otp', token)).json()).toEqual(RESENT);
    const pin = await startSignup(t, CARDS.pin, newEmail());
    for (const kind of ['otp', 'sms'] as const) expect((await resend(kind, pin.token)).json().result_code).toBe(300);
  });

  it('leaves exactly one live code after parallel resends', async () => {
    const email = newEmail();
    const token = await smsToEmailStep(t, email, CARDS.house);
    const answers = await Promise.all(Array.from({ length: 4 }, () => resend('otp', token)));
    expect(answers.map((r) => r.json().result_code)).toEqual([0, 0, 0, 0]);
    const db = t.testDb.db.kysely;
    const flow = await db.selectFrom('signup_flows').select('id').where('token_hash', '=', sha256(token)).executeTakeFirstOrThrow();
    const live = await db
      .selectFrom('verifications')
      .select('id')
      .where('subject', '=', flow.id)
      .where('purpose', '=', 'signup_email')
      .where('consumed_at', 'is', null)
      .execute();
    expect(live).toHaveLength(1);
  });
});
