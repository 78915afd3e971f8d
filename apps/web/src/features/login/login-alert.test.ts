import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { SERVER_MESSAGES } from '@sso/contracts/messages';
import { LoginAlert } from './login-alert.tsx';

const render = (message: string | undefined, lock?: 'account' | 'address') =>
  renderToStaticMarkup(createElement(MemoryRouter, null, createElement(LoginAlert, { message, lock })));

/** The lock (203, SPEC.md section 8) and what the member can do about it (decisions 0003 and 0011). */
describe('the login page\'s message', () => {
  it('keeps the lock message word for word, and beside it says for how long and that a password reset lifts it, with a link', () => {
    const html = render(SERVER_MESSAGES.locked);
    expect(html).toContain(`<p role="alert" class="`);
    expect(html).toContain(`>${SERVER_MESSAGES.locked}</p>`);
    expect(html).toContain('15分');
    expect(html).toContain('パスワードを再設定すると');
    expect(html).toMatch(/<a href="\/recover\/mail"[^>]*>パスワードを再設定する<\/a>/);
  });

  it("says the address's limit lifts with time alone, and offers no reset, which would not lift it (decision 0007)", () => {
    const html = render(SERVER_MESSAGES.locked, 'address');
    expect(html).toContain(`>${SERVER_MESSAGES.locked}</p>`);
    expect(html).toContain('15分ほど時間をおいてから');
    expect(html).not.toContain('パスワードを再設定すると');
    expect(html).not.toContain('/recover/mail');
  });

  it('adds no help to another message, a suspended account\'s (also 203) included, and shows nothing without one', () => {
    for (const message of [SERVER_MESSAGES.credentials, SERVER_MESSAGES.suspended]) {
      const html = render(message);
      expect(html).toContain(message);
      expect(html).not.toContain('/recover/mail');
    }
    expect(render(undefined)).toBe('');
  });
});
