import { beforeEach, describe, expect, it, vi } from 'vitest';
import { stubBrowserGlobals } from '../../lib/test-browser-globals.ts';

const store = stubBrowserGlobals();
const { showSignupFailure } = await import('./signup-failure.ts');
const { ApiFailure } = await import('../../lib/result.ts');
const { registerNavigator } = await import('../../lib/navigation.ts');
const { peekEphemeralMessage } = await import('../../lib/ephemeral-message.ts');
const { getHeldSignup, holdSignup } = await import('./signup-store.ts');

const failure = (result_code: number, result_message: string) => new ApiFailure({ result_code, result_message }, 400);

/** The common handling is tested in lib/failure-view.test.ts; here what the card sign-up adds. */
describe('what a card sign-up screen does with a failed answer', () => {
  const navigations: string[] = [];
  const view = { setMessage: vi.fn((_message: string | undefined) => undefined) };
  const hold = () =>
    holdSignup({ result_code: 0, result_message: '', register_token: 'rt', destination_to: 'Pin', terms: [] }, new URLSearchParams({ client_id: 'SIAP009' }));
  beforeEach(() => {
    store.clear();
    navigations.length = 0;
    registerNavigator((to) => navigations.push(to));
  });

  it('an ended flow (300) drops the held response and goes to /500 with its message', () => {
    hold();
    expect(getHeldSignup()).toBeDefined();
    showSignupFailure(failure(300, 'flow expired'), view);
    expect(getHeldSignup()).toBeUndefined();
    expect(navigations).toEqual(['/500']);
    expect(peekEphemeralMessage()).toBe('flow expired');
  });

  it('anything else goes to /500 and keeps the held response', () => {
    hold();
    showSignupFailure(new Error('boom'), view);
    expect(navigations).toEqual(['/500']);
    expect(peekEphemeralMessage()).toBe('予期しない問題のため処理できませんでした。');
    expect(getHeldSignup()).toBeDefined();
  });

  it('a 902 shows the message and keeps the held response', () => {
    hold();
    showSignupFailure(failure(902, 'ワンタイムパスワードが正しくありません。'), view);
    expect(view.setMessage).toHaveBeenCalledWith('ワンタイムパスワードが正しくありません。');
    expect(getHeldSignup()).toBeDefined();
    expect(navigations).toEqual([]);
  });
});
