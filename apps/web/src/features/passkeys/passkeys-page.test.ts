import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LIMITS } from '@sso/contracts/constants';
import { PASSKEY_MESSAGES } from '@sso/contracts/messages';
import { PASSKEY_SETTINGS_MESSAGES } from '@sso/contracts/screen-messages';
import { PASSKEY_SCREEN_TEXTS } from '@sso/contracts/passkey-screens';
import type { PasskeyListResponse } from '@sso/contracts/passkeys';
import { stubBrowserGlobals } from '../../lib/test-browser-globals.ts';
import { PASSKEYS_QUERY_KEY } from './passkeys-api.ts';
import { PasskeysPage } from './passkeys-page.tsx';
import { registrationOffer } from './passkey-view.ts';

// 2026-11-23 05:05 UTC is 14:05 in Japan.
const AT = Date.UTC(2026, 10, 23, 5, 5);
const OK = { result_code: 0, result_message: '正常に処理しました。' };

/** The page as the server's list makes it, rendered once (no effects run). */
function rendered(list: Omit<PasskeyListResponse, 'result_code' | 'result_message'>) {
  const client = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity, enabled: false } } });
  client.setQueryData(PASSKEYS_QUERY_KEY, { ...OK, ...list });
  return renderToStaticMarkup(
    createElement(QueryClientProvider, { client }, createElement(MemoryRouter, { initialEntries: ['/user/passkeys'] }, createElement(PasskeysPage))),
  );
}

describe('the passkey settings (decision 0024)', () => {
  beforeEach(() => {
    stubBrowserGlobals();
    vi.stubGlobal('PublicKeyCredential', function PublicKeyCredential() {});
  });
  afterEach(() => void vi.unstubAllGlobals());

  it('lists each passkey with its registration time, its last use or 未使用, and its kind, and offers the registration', () => {
    const html = rendered({
      passkeys: [
        { id: 'p1', name: 'Safari / iPhone', created_at: AT, last_used_at: AT + 60 * 60 * 1000, synced: true },
        { id: 'p2', name: 'セキュリティキー', created_at: AT, last_used_at: null, synced: false },
      ],
      require_passkey: false,
    });
    expect(html).toContain('<h1>パスキー</h1>');
    expect(html).toContain(PASSKEY_SETTINGS_MESSAGES.lead);
    expect(html).toContain('Safari / iPhone');
    expect(html).toContain('<time dateTime="2026-11-23T14:05+09:00">2026年11月23日 14:05</time>');
    expect(html).toContain('<time dateTime="2026-11-23T15:05+09:00">2026年11月23日 15:05</time>');
    expect(html).toContain(`<dd>${PASSKEY_SCREEN_TEXTS.unused}</dd>`);
    expect(html).toContain(PASSKEY_SETTINGS_MESSAGES.synced);
    expect(html).toContain(PASSKEY_SETTINGS_MESSAGES.deviceBound);
    // Each passkey's actions say which passkey they act on.
    expect(html).toContain('aria-label="「セキュリティキー」の名前を変更"');
    expect(html).toContain('aria-label="「セキュリティキー」を削除"');
    expect(html).toContain(`${PASSKEY_SETTINGS_MESSAGES.add}</button>`);
    expect(html).not.toContain(PASSKEY_SETTINGS_MESSAGES.none);
  });

  it('says when there is no passkey, and offers the setting as a labelled checkbox', () => {
    const none = rendered({ passkeys: [], require_passkey: false });
    expect(none).toContain(PASSKEY_SETTINGS_MESSAGES.none);
    expect(none).toMatch(/<input id="require_passkey"[^>]*type="checkbox"/);
    expect(none).toContain(`<label for="require_passkey">${PASSKEY_SETTINGS_MESSAGES.requireLabel}</label>`);
  });

  it('offers no registration in a browser without WebAuthn, and says why', () => {
    vi.stubGlobal('PublicKeyCredential', undefined);
    const html = rendered({ passkeys: [], require_passkey: false });
    expect(html).not.toContain(`${PASSKEY_SETTINGS_MESSAGES.add}</button>`);
    expect(html).toContain(PASSKEY_MESSAGES.unsupported);
  });
});

describe('the registration offer', () => {
  it('offers it up to the member\'s limit, in a browser with WebAuthn', () => {
    expect(registrationOffer(true, 0, LIMITS.passkeysPerMember)).toEqual({ offer: true });
    expect(registrationOffer(true, LIMITS.passkeysPerMember - 1, LIMITS.passkeysPerMember)).toEqual({ offer: true });
    expect(registrationOffer(true, LIMITS.passkeysPerMember, LIMITS.passkeysPerMember)).toEqual({ offer: false, reason: PASSKEY_SCREEN_TEXTS.limitReached });
    expect(registrationOffer(false, 0, LIMITS.passkeysPerMember)).toEqual({ offer: false, reason: PASSKEY_MESSAGES.unsupported });
  });
});
