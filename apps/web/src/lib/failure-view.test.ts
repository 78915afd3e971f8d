import { beforeEach, describe, expect, it, vi } from 'vitest';
import { stubBrowserGlobals } from './test-browser-globals.ts';

const store = stubBrowserGlobals();
const { showFailure } = await import('./failure-view.ts');
const { ApiFailure, networkFailure } = await import('./result.ts');
const { registerNavigator } = await import('./navigation.ts');
const { peekEphemeralMessage, peekEphemeralReference } = await import('./ephemeral-message.ts');
const { failureFromBody } = await import('./result.ts');

const failure = (result_code: number, result_message: string, validation_errors?: { key: string; message: string }[]) =>
  new ApiFailure({ result_code, result_message, validation_errors }, 400);

describe('what a form screen does with a failed answer', () => {
  const navigations: string[] = [];
  const newView = () => ({
    setMessage: vi.fn((_message: string | undefined) => undefined),
    setFieldError: vi.fn((_key: string, _message: string) => true),
    clearSecrets: vi.fn(() => undefined),
    onFlowEnded: vi.fn(() => undefined),
  });
  let view = newView();
  beforeEach(() => {
    store.clear();
    navigations.length = 0;
    registerNavigator((to) => navigations.push(to));
    view = newView();
  });

  it('901: puts each validation error on its field, shows the generic message and gives the result back', () => {
    const result = showFailure(failure(901, '入力内容をご確認ください。', [{ key: 'cardnumber', message: 'a' }, { key: 'client_id', message: 'b' }]), view);
    expect(result.result_code).toBe(901);
    expect(view.setFieldError.mock.calls).toEqual([['cardnumber', 'a'], ['client_id', 'b']]);
    expect(view.setMessage).toHaveBeenCalledWith('入力内容をご確認ください。');
    expect(view.clearSecrets).not.toHaveBeenCalled();
    expect(navigations).toEqual([]);
  });

  it('902: shows the server message and clears the OTP or PIN', () => {
    expect(showFailure(failure(902, 'ワンタイムパスワードが正しくありません。'), view).result_code).toBe(902);
    expect(view.setMessage).toHaveBeenCalledWith('ワンタイムパスワードが正しくありません。');
    expect(view.clearSecrets).toHaveBeenCalledTimes(1);
  });

  it('203, 205 and a network failure: the message on the page, the field kept', () => {
    showFailure(failure(203, 'locked'), view);
    showFailure(failure(205, 'recaptcha'), view);
    showFailure(networkFailure(), view);
    expect(view.setMessage.mock.calls.map((c) => c[0])).toEqual(['locked', 'recaptcha', expect.stringContaining('ネットワーク')]);
    expect(view.clearSecrets).not.toHaveBeenCalled();
    expect(navigations).toEqual([]);
  });

  it('903 and 904 go to their guide pages with the server message', () => {
    showFailure(failure(903, 'info guide'), view);
    expect(navigations).toEqual(['/problem/signup/card/info']);
    expect(peekEphemeralMessage()).toBe('info guide');
    showFailure(failure(904, 'chatbot guide'), view);
    expect(navigations).toEqual(['/problem/signup/card/info', '/problem/signup/card/chatbot']);
    expect(peekEphemeralMessage()).toBe('chatbot guide');
    expect(view.setMessage).not.toHaveBeenCalled();
  });

  it('an ended flow (300) tells the screen, then goes to /500 with its message', () => {
    showFailure(failure(300, 'flow expired'), view);
    expect(view.onFlowEnded).toHaveBeenCalledTimes(1);
    expect(navigations).toEqual(['/500']);
    expect(peekEphemeralMessage()).toBe('flow expired');
  });

  it('anything else goes to /500 with the unexpected message, the flow kept', () => {
    showFailure(new Error('boom'), view);
    expect(navigations).toEqual(['/500']);
    expect(peekEphemeralMessage()).toBe('予期しない問題のため処理できませんでした。');
    expect(view.onFlowEnded).not.toHaveBeenCalled();
  });

  it('a 5xx answer with a support reference takes it to /500 with the message (docs/operations.md)', () => {
    showFailure(new ApiFailure({ result_code: 500, result_message: '予期しない問題のため処理できませんでした。', reference: '3f2a9c1b' }, 500), view);
    expect(navigations).toEqual(['/500']);
    expect(peekEphemeralReference()).toBe('3f2a9c1b');
    // An OAuth endpoint's server_error carries one too.
    showFailure(failureFromBody(500, { error: 'server_error', error_description: 'unexpected error', reference: '0a1b2c3d' }), view);
    expect(peekEphemeralReference()).toBe('0a1b2c3d');
  });

  it('a failure with no server answer has no reference to show: nothing logged one', () => {
    showFailure(networkFailure(), view);
    showFailure(new Error('boom'), view);
    expect(peekEphemeralReference()).toBeUndefined();
  });
});
