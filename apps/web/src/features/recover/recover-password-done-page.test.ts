import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { resetPasskeysRequestSchema } from '@sso/contracts/passkeys';
import { stubBrowserGlobals, jsonResponse as json } from '../../lib/test-browser-globals.ts';
import { fetchResetPasskeys, removeResetPasskeys } from './recover-api.ts';
import { RecoverPasswordDonePage } from './recover-password-done-page.tsx';
import { reviewTokenOf } from './reset-passkeys.tsx';

const render = (entry: string | { pathname: string; state: unknown }) =>
  renderToStaticMarkup(createElement(MemoryRouter, { initialEntries: [entry] }, createElement(RecoverPasswordDonePage)));

/** The reset's finish page and the passkeys added before the reset (decision 0024, "After a password reset"). */
describe('the password reset finish page', () => {
  beforeEach(() => void stubBrowserGlobals());

  it('takes the secret from the reset page\'s history state only when it is one', () => {
    expect(reviewTokenOf({ passkeyReviewToken: 'tok-1' })).toBe('tok-1');
    for (const state of [null, undefined, {}, { passkeyReviewToken: '' }, { passkeyReviewToken: 1 }, 'tok']) expect(reviewTokenOf(state)).toBeUndefined();
  });

  it('says the reset is done, with or without a secret, and lists nothing before the server answered', () => {
    for (const html of [render('/recover/password/done'), render({ pathname: '/recover/password/done', state: { passkeyReviewToken: 'tok-1' } })]) {
      expect(html).toContain('<h1>パスワードの再設定完了</h1>');
      expect(html).toContain('ログインする');
      expect(html).not.toContain('これらのパスキーを削除する');
    }
  });

  it('posts the secret publicly, as the contract has it, to list and to remove', async () => {
    const fetchMock = vi.fn(async () => json(200, { result_code: 0, result_message: 'ok', passkeys: [{ name: 'x', created_at: 1, device: null }] }));
    vi.stubGlobal('fetch', fetchMock);
    expect((await fetchResetPasskeys('tok-1')).passkeys).toEqual([{ name: 'x', created_at: 1, device: null }]);
    await removeResetPasskeys('tok-1');
    const calls = fetchMock.mock.calls as unknown as [string, RequestInit][];
    expect(calls.map((c) => c[0])).toEqual(['http://sso.test/api/auth/password/reset/passkeys', 'http://sso.test/api/auth/password/reset/passkeys/remove']);
    for (const [, init] of calls) {
      expect(resetPasskeysRequestSchema.parse(JSON.parse(init.body as string))).toEqual({ token: 'tok-1' });
      expect(new Headers(init.headers).has('authorization')).toBe(false);
    }
  });
});
