import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PASSKEY_MESSAGES } from '@sso/contracts/messages';
import type { PasskeyListResponse } from '@sso/contracts/passkeys';
import { PASSKEYS_QUERY_KEY } from '../../lib/passkeys-query.ts';
import { stubBrowserGlobals } from '../../lib/test-browser-globals.ts';
import { PASSKEY_CHANGE_LABEL, PasswordChangePage, passwordProofOf } from './password-change-page.tsx';

const OK = { result_code: 0, result_message: '正常に処理しました。' };
const PASSKEY = { id: 'p1', name: 'Safari / iPhone', created_at: 0, last_used_at: null, synced: true };

/** The page as the member's passkey list makes it (none loaded: undefined), rendered once (no effects run). */
function rendered(list?: Pick<PasskeyListResponse, 'passkeys' | 'require_passkey'>) {
  const client = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity, enabled: false } } });
  if (list) client.setQueryData(PASSKEYS_QUERY_KEY, { ...OK, ...list });
  return renderToStaticMarkup(
    createElement(QueryClientProvider, { client }, createElement(MemoryRouter, { initialEntries: ['/user/password'] }, createElement(PasswordChangePage))),
  );
}

const CURRENT_LABEL = /<label[^>]*for="current_password"[^>]*>現在のパスワード<\/label>/;

/** The password change proves the member in the request itself (OWASP ASVS 5.0 V6.2.3): the current password, or a passkey (decision 0024). */
describe('the password change page', () => {
  beforeEach(() => {
    stubBrowserGlobals();
    vi.stubGlobal('PublicKeyCredential', function PublicKeyCredential() {});
  });
  afterEach(() => void vi.unstubAllGlobals());

  it('asks a member without a passkey for the current password, under a visible label, and offers no passkey', () => {
    for (const html of [rendered(), rendered({ passkeys: [], require_passkey: false })]) {
      expect(html).toMatch(CURRENT_LABEL);
      expect(html).toMatch(/<input id="current_password"[^>]*autoComplete="current-password"/);
      expect(html).not.toContain(PASSKEY_MESSAGES.currentPasswordHint);
      expect(html).not.toContain(PASSKEY_CHANGE_LABEL);
      expect(html).toContain('変更する</button>');
    }
  });

  it('offers a member with a passkey the passkey instead of the current password, said under its label', () => {
    const html = rendered({ passkeys: [PASSKEY], require_passkey: false });
    expect(html).toMatch(CURRENT_LABEL);
    expect(html).toContain(`<p id="current_password-hint"`);
    expect(html).toContain(PASSKEY_MESSAGES.currentPasswordHint);
    expect(html).toMatch(/<input id="current_password"[^>]*aria-describedby="current_password-hint"/);
    expect(html).toMatch(new RegExp(`<button[^>]*type="button"[^>]*>${PASSKEY_CHANGE_LABEL}</button>`));
  });

  it('asks a member who requires a passkey for the passkey only: no current password field', () => {
    const html = rendered({ passkeys: [PASSKEY], require_passkey: true });
    expect(html).not.toContain('id="current_password"');
    expect(html).toContain(`「${PASSKEY_CHANGE_LABEL}」を押してください`);
    expect(html).toMatch(new RegExp(`<button[^>]*type="button"[^>]*>${PASSKEY_CHANGE_LABEL}</button>`));
    expect(html).not.toContain('>変更する</button>');
  });

  it('offers the passkey only where the browser can use it, except to a member who requires one', () => {
    const list = { passkeys: [PASSKEY], require_passkey: false };
    expect(passwordProofOf(undefined, true)).toBe('password');
    expect(passwordProofOf({ passkeys: [], require_passkey: false }, true)).toBe('password');
    expect(passwordProofOf(list, true)).toBe('either');
    expect(passwordProofOf(list, false)).toBe('password');
    expect(passwordProofOf({ ...list, require_passkey: true }, false)).toBe('passkey');
  });
});
