import { beforeEach, describe, expect, it } from 'vitest';
import type { SignupStepResponse } from '@sso/contracts/signup';
import { stubBrowserGlobals } from '../../lib/test-browser-globals.ts';

const store = stubBrowserGlobals();
const { advanceSignup, clearHeldSignup, getHeldSignup, holdSignup, stepOf } = await import('./signup-store.ts');

const sent = new URLSearchParams({
  client_id: 'SIAP009',
  redirect_uri: 'http://sso.test/content/oauth/callback',
  state: 'st',
  scope: 'openid',
  response_type: 'code',
  code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
  code_challenge_method: 'S256',
});
const answer = (over: Partial<SignupStepResponse>): SignupStepResponse => ({
  result_code: 0,
  result_message: 'ok',
  register_token: 'rt-1',
  terms: ['ServiceOnMemberId'],
  ...over,
});

describe('held sign-up response', () => {
  beforeEach(() => store.clear());

  it('names the step of each destination, and none for an unknown one', () => {
    expect(['OtpSMS', 'sms', 'OtpEmail', 'email', 'Pin', 'other', undefined].map(stepOf)).toEqual(
      ['sms', 'sms', 'email', 'email', 'pin', undefined, undefined],
    );
  });

  it('holds the card answer across a reload, with the authorize parameters sent', () => {
    holdSignup(answer({ destination_to: 'OtpSMS', tel: '090****0001' }), sent);
    expect(getHeldSignup()).toEqual({
      registerToken: 'rt-1',
      step: 'sms',
      tel: '090****0001',
      terms: ['ServiceOnMemberId'],
      authorize: Object.fromEntries(sent),
    });
    expect(store.size).toBe(1);
  });

  it('keeps an OpenID Connect request\'s nonce to the hand-off, whose query carries it to the server (decision 0026)', () => {
    const held = holdSignup(answer({ destination_to: 'OtpEmail' }), new URLSearchParams({ ...Object.fromEntries(sent), nonce: 'n-0S6' }));
    expect(held?.authorize.nonce).toBe('n-0S6');
  });

  it('takes the authorize parameters the server echoed over those sent', () => {
    const held = holdSignup(answer({ destination_to: 'Pin', state: 'echoed', client_id: '' }), sent);
    expect(held?.authorize).toMatchObject({ state: 'echoed', client_id: 'SIAP009' });
  });

  it("carries a pushed request's client_id and request_uri to the hand-off unchanged, and nothing else (decision 0036)", () => {
    const pushed = new URLSearchParams({ client_id: 'SIAP004', request_uri: 'urn:ietf:params:oauth:request_uri:abc' });
    // The server echoes a pushed request's client only: its other parameters never reach the browser.
    const held = holdSignup(answer({ destination_to: 'OtpEmail', client_id: 'SIAP004' }), pushed);
    expect(getHeldSignup()?.authorize).toEqual(Object.fromEntries(pushed));
    const next = advanceSignup(held!, 'terms', answer({ client_id: 'SIAP004' }));
    expect(new URLSearchParams(next.authorize).toString()).toBe(pushed.toString());
  });

  it('holds nothing for an answer that names no step or has no token', () => {
    expect(holdSignup(answer({}), sent)).toBeUndefined();
    expect(holdSignup(answer({ destination_to: 'OtpEmail', register_token: '' }), sent)).toBeUndefined();
    expect(getHeldSignup()).toBeUndefined();
  });

  it('advances by step, keeping what a later answer leaves out', () => {
    const held = holdSignup(answer({ destination_to: 'OtpSMS', tel: '090****0001' }), sent)!;
    const email = advanceSignup(held, 'email', { destination_to: 'email', email: 'new@example.com', terms: [] });
    expect(email).toMatchObject({ step: 'email', email: 'new@example.com', tel: '090****0001', terms: ['ServiceOnMemberId'], registerToken: 'rt-1' });
    advanceSignup(email, 'terms', { terms: ['ServiceOnMemberId', 'PersonalInfoOnMemberId'], register_token: 'rt-2' });
    expect(getHeldSignup()).toMatchObject({ step: 'terms', terms: ['ServiceOnMemberId', 'PersonalInfoOnMemberId'], registerToken: 'rt-2' });
  });

  it('is gone once cleared', () => {
    holdSignup(answer({ destination_to: 'OtpEmail', email: 'a@example.com' }), sent);
    clearHeldSignup();
    expect(getHeldSignup()).toBeUndefined();
  });

  it('counts a broken or foreign record as none', () => {
    const put = (v: unknown) => store.set('sso.signup', typeof v === 'string' ? v : JSON.stringify(v));
    const whole = { registerToken: 'rt', step: 'pin', terms: [], authorize: { client_id: 'SIAP009' } };
    put(whole);
    expect(getHeldSignup()).toEqual(whole);
    for (const broken of ['{not json', { ...whole, registerToken: '' }, { ...whole, step: 'toString' }, { ...whole, terms: [1] }, { ...whole, authorize: {} }, { ...whole, authorize: { client_id: 1 } }]) {
      put(broken);
      expect(getHeldSignup()).toBeUndefined();
    }
  });
});
