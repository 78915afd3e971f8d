import { beforeEach, describe, expect, it, vi } from 'vitest';
import { stubBrowserGlobals } from '../../lib/test-browser-globals.ts';

const store = stubBrowserGlobals();
const { showSignupFailure } = await import('./signup-failure.ts');
const { ApiFailure, networkFailure } = await import('../../lib/result.ts');
const { registerNavigator } = await import('../../lib/navigation.ts');
const { peekEphemeralMessage } = await import('../../lib/ephemeral-message.ts');
const { getHeldSignup, holdSignup } = await import('./signup-store.ts');

const failure = (result_code: number, result_message: string, validation_errors?: { key: string; message: string }[]) =>
  new ApiFailure({ result_code, result_message, validation_errors }, 400);

describe('what a sign-up screen does with a failed answer', () => {
  const navigations: string[] = [];
  const newView = () => ({
    setMessage: vi.fn((_message: string | undefined) => undefined),
    setFieldError: vi.fn((_key: string, _message: string) => true),
    clearSecrets: vi.fn(() => undefined),
  });
  let view = newView();
  beforeEach(() => {
    store.clear();
    navigations.length = 0;
    registerNavigator((to) => navigations.push(to));
    view = newView();
  });

  it('901: puts each validation error on its field and shows the generic message', () => {
    showSignupFailure(failure(901, '入力内容をご確認ください。', [{ key: 'cardnumber', message: 'a' }, { key: 'client_id', message: 'b' }]), view);
    expect(view.setFieldError.mock.calls).toEqual([['cardnumber', 'a'], ['client_id', 'b']]);
    expect(view.setMessage).toHaveBeenCalledWith('入力内容をご確認ください。');
    expect(view.clearSecrets).not.toHaveBeenCalled();
    expect(navigations).toEqual([]);
  });

  it('902: shows the server message and clears the OTP or PIN', () => {
    showSignupFailure(failure(902, 'ワンタイムパスワードが正しくありません。'), view);
    expect(view.setMessage).toHaveBeenCalledWith('ワンタイムパスワードが正しくありません。');
    expect(view.clearSecrets).toHaveBeenCalledTimes(1);
  });

  it('203, 205 and a network failure: the message on the page, the field kept', () => {
    showSignupFailure(failure(203, 'locked'), view);
    showSignupFailure(failure(205, 'recaptcha'), view);
    showSignupFailure(networkFailure(), view);
    expect(view.setMessage.mock.calls.map((c) => c[0])).toEqual(['locked', 'recaptcha', expect.stringContaining('ネットワーク')]);
    expect(view.clearSecrets).not.toHaveBeenCalled();
    expect(navigations).toEqual([]);
  });

  it('903 and 904 go to their guide pages with the server message', () => {
    showSignupFailure(failure(903, 'info guide'), view);
    expect(navigations).toEqual(['/problem/signup/card/info']);
    expect(peekEphemeralMessage()).toBe('info guide');
    showSignupFailure(failure(904, 'chatbot guide'), view);
    expect(navigations).toEqual(['/problem/signup/card/info', '/problem/signup/card/chatbot']);
    expect(peekEphemeralMessage()).toBe('chatbot guide');
    expect(view.setMessage).not.toHaveBeenCalled();
  });

  it('an ended flow (300) drops the held response and goes to /500 with its message', () => {
    holdSignup({ result_code: 0, result_message: '', register_token: 'rt', destination_to: 'Pin', terms: [] }, new URLSearchParams({ client_id: 'SIAP009' }));
    expect(getHeldSignup()).toBeDefined();
    showSignupFailure(failure(300, 'flow expired'), view);
    expect(getHeldSignup()).toBeUndefined();
    expect(navigations).toEqual(['/500']);
    expect(peekEphemeralMessage()).toBe('flow expired');
  });

  it('anything else goes to /500 and keeps the held response', () => {
    holdSignup({ result_code: 0, result_message: '', register_token: 'rt', destination_to: 'Pin', terms: [] }, new URLSearchParams({ client_id: 'SIAP009' }));
    showSignupFailure(new Error('boom'), view);
    expect(navigations).toEqual(['/500']);
    expect(peekEphemeralMessage()).toBe('予期しない問題のため処理できませんでした。');
    expect(getHeldSignup()).toBeDefined();
  });
});
