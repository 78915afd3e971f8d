import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { beforeEach, describe, expect, it } from 'vitest';
import { PASSKEY_MESSAGES } from '@sso/contracts/messages';
import { ACCOUNT_MESSAGES } from '@sso/contracts/screen-messages';
import { EmailChangePage } from '../features/account-change/email-change-page.tsx';
import { LINKS } from '../lib/links.ts';
import { stubBrowserGlobals } from '../lib/test-browser-globals.ts';
import { FreshProofDialog, type FreshProofDialogProps } from './fresh-proof-dialog.tsx';

const noop = async () => {};
const dialog = (props: Partial<FreshProofDialogProps>) =>
  renderToStaticMarkup(createElement(FreshProofDialog, { open: true, message: undefined, pending: false, onSubmit: noop, onPasskey: noop, onCancel: () => {}, ...props }));

/** Decision 0012: the proof never locks a member out, and the screens say why and what before asking. */
describe('the fresh-proof prompt and its screens', () => {
  beforeEach(() => void stubBrowserGlobals());

  it('tells a member who requires a passkey what to do on a device without it: that device, or the support desk', () => {
    const html = dialog({ passkey: true, passkeyRequired: true });
    expect(html).toContain(PASSKEY_MESSAGES.freshProofPasskeyNeeded);
    expect(html).toContain(PASSKEY_MESSAGES.freshProofPasskeyAway);
    expect(html).toContain(`<a href="${LINKS.support}">お問い合わせ</a>`);
    expect(html).not.toContain('現在のパスワード');
  });

  it('says nothing of it to a member who may use the password', () => {
    for (const props of [{}, { passkey: true }]) {
      const html = dialog(props);
      expect(html).not.toContain(PASSKEY_MESSAGES.freshProofPasskeyAway);
      expect(html).toContain('現在のパスワード');
    }
  });

  it('explains the proof on the e-mail change screen before its button', () => {
    const html = renderToStaticMarkup(createElement(MemoryRouter, null, createElement(EmailChangePage)));
    const button = html.indexOf('送信する</button>');
    for (const text of [ACCOUNT_MESSAGES.freshProofWhy, ACCOUNT_MESSAGES.freshProofWhat(5)]) {
      expect(html.indexOf(text)).toBeGreaterThan(0);
      expect(html.indexOf(text)).toBeLessThan(button);
    }
  });
});
