import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { beforeEach, describe, expect, it } from 'vitest';
import { PASSKEY_MESSAGES } from '@sso/contracts/messages';
import { stubBrowserGlobals } from '../../lib/test-browser-globals.ts';
import { PasswordChangePage } from './password-change-page.tsx';

describe('the password change of a member with a passkey (decision 0024)', () => {
  beforeEach(() => void stubBrowserGlobals());

  it('says under its label that the current password is not needed when presence is proved with a passkey', () => {
    const html = renderToStaticMarkup(createElement(MemoryRouter, { initialEntries: ['/user/password'] }, createElement(PasswordChangePage)));
    expect(html).toMatch(/<label[^>]*for="current_password"[^>]*>現在のパスワード<\/label>/);
    expect(html).toContain(`<p id="current_password-hint"`);
    expect(html).toContain(PASSKEY_MESSAGES.currentPasswordHint);
    expect(html).toMatch(/<input id="current_password"[^>]*aria-describedby="current_password-hint"/);
  });
});
