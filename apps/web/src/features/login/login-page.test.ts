import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ACR_VALUES } from '@sso/contracts/constants';
import { PASSKEY_MESSAGES } from '@sso/contracts/messages';
import { checkAuthorize } from '../../lib/authorize-check.ts';
import { LINKS } from '../../lib/links.ts';
import { registerNavigator } from '../../lib/navigation.ts';
import { authorizeParams, ensureOAuthClient, saveSession } from '../../lib/records.ts';
import { stubBrowserGlobals } from '../../lib/test-browser-globals.ts';
import { LoginPage } from './login-page.tsx';

const render = (query: string) =>
  renderToStaticMarkup(createElement(MemoryRouter, { initialEntries: [`/authorize?${query}`] }, createElement(LoginPage)));
const authorize = (clientId: string) => `client_id=${clientId}&redirect_uri=${encodeURIComponent('https://partner.test/cb')}&state=s`;

/** The server's answer to /api/auth/authorize/check for the requests of this test, as the page asked it. */
async function serverSays(status: number, body: unknown, ...queries: string[]) {
  vi.stubGlobal('fetch', vi.fn(async () => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })));
  for (const q of queries) await checkAuthorize(new URLSearchParams(q));
}
const OK = { result_code: 0, result_message: '正常に処理しました。' };

describe('login links (SPEC.md section 2)', () => {
  beforeEach(async () => {
    stubBrowserGlobals();
    await serverSays(200, OK, ...['SIAP009', 'SIAP005', 'SIAP004', 'SIAP002'].map(authorize));
  });

  it('has card sign-up, password-forgot and help links', () => {
    const html = render(authorize('SIAP005'));
    expect(html).toContain('href="/signup/card?');
    expect(html).toContain('href="/recover/mail"');
    expect(html).toContain(`href="${LINKS.help}"`);
  });

  it('offers the chat-bot to a member arriving from the messaging app (SIAP002)', () => {
    expect(render(authorize('SIAP002'))).toContain(`href="${LINKS.chatbot}"`);
  });

  it('offers no chat-bot to members from elsewhere, whatever an earlier session came from', () => {
    saveSession({ comesFrom: 'SIAP002' });
    for (const id of ['SIAP009', 'SIAP005', 'SIAP004']) expect(render(authorize(id)), id).not.toContain(LINKS.chatbot);
  });
});

describe('a partner\'s link the authorize endpoint would refuse (RFC 6749 section 4.1.2.1)', () => {
  beforeEach(() => void stubBrowserGlobals());

  it('shows no password field while the server is asked, nor once it refused the client', async () => {
    const unknown = authorize('SIAP999');
    expect(render(unknown)).not.toContain('type="password"');
    expect(render(unknown)).toContain('<h1>ログイン</h1>');
    await serverSays(400, { result_code: 901, result_message: '入力内容をご確認ください。', validation_errors: [{ key: 'client_id', message: '入力内容をご確認ください。' }] }, unknown);
    expect(render(unknown)).not.toContain('type="password"');
  });

  it('shows no password field for a known partner\'s other mistake, and keeps the error redirect the server gave to follow', async () => {
    const badMethod = `${authorize('SIAP006')}&code_challenge_method=plain`;
    const redirectTo = 'https://partner.test/cb?error=invalid_request&error_description=x&state=s&iss=http%3A%2F%2Fsso.test';
    vi.stubGlobal('fetch', vi.fn(async () => new Response(JSON.stringify({ ...OK, redirect_to: redirectTo }), { status: 200 })));
    expect(await checkAuthorize(new URLSearchParams(badMethod))).toEqual({ redirectTo });
    const html = render(badMethod);
    expect(html).not.toContain('type="password"');
    expect(html).toContain('<h1>ログイン</h1>');
  });

  it('shows the form once the server took the request, and at once for the web\'s own saved client', async () => {
    const partner = authorize('SIAP006');
    await serverSays(200, OK, partner);
    expect(render(partner)).toContain('type="password"');
    vi.stubGlobal('fetch', vi.fn(() => Promise.reject(new Error('not asked'))));
    expect(render(authorizeParams(await ensureOAuthClient()).toString())).toContain('type="password"');
  });
});

describe('the passkey sign-in on the login page (decision 0024)', () => {
  beforeEach(() => void stubBrowserGlobals());

  it('offers 「パスキーでログイン」 in a browser with WebAuthn, and nothing in one without', async () => {
    const own = authorizeParams(await ensureOAuthClient()).toString();
    vi.stubGlobal('PublicKeyCredential', undefined);
    expect(render(own)).not.toContain(PASSKEY_MESSAGES.loginButton);
    vi.stubGlobal('PublicKeyCredential', function PublicKeyCredential() {});
    const html = render(own);
    expect(html).toContain(`${PASSKEY_MESSAGES.loginButton}</button>`);
    // The id field says "webauthn" only once the browser said it offers passkeys in its autofill.
    expect(html).toContain('autoComplete="username"');
    vi.unstubAllGlobals();
  });

  it('offers no passkey while a partner\'s link is being checked', () => {
    vi.stubGlobal('PublicKeyCredential', function PublicKeyCredential() {});
    expect(render(authorize('SIAP999'))).not.toContain(PASSKEY_MESSAGES.loginButton);
    vi.unstubAllGlobals();
  });
});

describe('a partner asking for phishing-resistant authentication (acr_values, decision 0025)', () => {
  beforeEach(() => void stubBrowserGlobals());
  const asking = (...values: string[]) => `${authorize('SIAP004')}&acr_values=${encodeURIComponent(values.join(' '))}`;

  it('offers the passkey only, saying why, where no password would do', async () => {
    const passkeyOnly = asking(ACR_VALUES.phishingResistant);
    await serverSays(200, OK, passkeyOnly);
    vi.stubGlobal('PublicKeyCredential', function PublicKeyCredential() {});
    const html = render(passkeyOnly);
    expect(html).not.toContain('type="password"');
    expect(html).toContain(PASSKEY_MESSAGES.loginPasskeyRequired);
    expect(html).toContain(`${PASSKEY_MESSAGES.loginButton}</button>`);
    // A browser without WebAuthn is told it cannot sign in here, not shown a form the server would refuse.
    vi.stubGlobal('PublicKeyCredential', undefined);
    expect(render(passkeyOnly)).toContain(PASSKEY_MESSAGES.unsupported);
    vi.unstubAllGlobals();
  });

  it('keeps the password form where basic is accepted too, or nothing this server knows is asked', async () => {
    const either = asking(ACR_VALUES.phishingResistant, ACR_VALUES.basic);
    const unknown = asking('urn:other:acr:gold');
    await serverSays(200, OK, either, unknown);
    expect(render(either)).toContain('type="password"');
    expect(render(unknown)).toContain('type="password"');
    expect(render(unknown)).not.toContain(PASSKEY_MESSAGES.loginPasskeyRequired);
  });
});

describe('a partner\'s link while the service is out', () => {
  beforeEach(() => void stubBrowserGlobals());

  it('goes to /503 when the server answers the check out of service (SPEC.md section 8, result 501), and to no other page on a network failure', async () => {
    const navigations: string[] = [];
    registerNavigator((to) => navigations.push(String(to)));
    await serverSays(503, { result_code: 501, result_message: 'ただいまサービスを停止しております。しばらく経ってから再度お試しください。' }, authorize('SIAP007'));
    expect(navigations).toEqual(['/503']);
    vi.stubGlobal('fetch', vi.fn(() => Promise.reject(new TypeError('Failed to fetch'))));
    await checkAuthorize(new URLSearchParams(authorize('SIAP008')));
    expect(navigations).toEqual(['/503']);
  });
});
