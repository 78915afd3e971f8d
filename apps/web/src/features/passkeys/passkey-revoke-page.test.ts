import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { PASSKEY_SCREEN_TEXTS } from '@sso/contracts/passkey-screens';
import { stubBrowserGlobals, jsonResponse as json } from '../../lib/test-browser-globals.ts';
import { PasskeyRevokePage } from './passkey-revoke-page.tsx';
import { revokePasskey } from './revoke-api.ts';

const render = (url: string) => renderToStaticMarkup(createElement(MemoryRouter, { initialEntries: [url] }, createElement(PasskeyRevokePage)));

describe('disabling a passkey from the mail (decision 0024)', () => {
  beforeEach(() => void stubBrowserGlobals());

  it('says what the link does and offers 「このパスキーを無効にする」', () => {
    const html = render('/passkey/revoke?token=t-1');
    expect(html).toContain('<h1>パスキーの無効化</h1>');
    expect(html).toContain(PASSKEY_SCREEN_TEXTS.revokeLead);
    expect(html).toContain(`${PASSKEY_SCREEN_TEXTS.revokeButton}</button>`);
  });

  it('shows nothing of it without a token (it goes to Welcome)', () => {
    expect(render('/passkey/revoke')).not.toContain(PASSKEY_SCREEN_TEXTS.revokeButton);
  });

  it('posts the link\'s token publicly, and gives a used or expired link as the server\'s 902', async () => {
    const fetchMock = vi.fn(async () => json(200, { result_code: 0, result_message: 'ok' }));
    vi.stubGlobal('fetch', fetchMock);
    await revokePasskey('t-1');
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toMatch(/\/api\/auth\/passkey\/revoke$/);
    expect(JSON.parse(init.body as string)).toEqual({ token: 't-1' });
    expect((init.headers as Record<string, string>).Authorization).toBeUndefined();
    const used = { result_code: 902, result_message: 'このリンクは無効です。' };
    vi.stubGlobal('fetch', vi.fn(async () => json(400, used)));
    await expect(revokePasskey('t-1')).rejects.toMatchObject({ result: used });
  });
});
