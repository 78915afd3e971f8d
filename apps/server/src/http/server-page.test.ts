import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { CLIENT_MESSAGES } from '@sso/contracts/messages';
import { LOGOUT_MESSAGES } from '@sso/contracts/screen-messages';
import { withTestApp } from '../test-support/test-app.ts';

type Answer = { statusCode: number; body: string; headers: Record<string, unknown> };

/**
 * The frame of SPEC.md section 2 on a page the server renders itself: the header with the logo to the
 * welcome page, the 700 px main column, the footer's two links and copyright, its style allowed by
 * hash in a policy that still allows no other inline style or any script.
 */
function expectFramed(res: Answer, title: string) {
  const html = res.body;
  expect(res.headers['content-type']).toMatch(/^text\/html/);
  expect(res.headers['cache-control']).toBe('no-store');
  expect(html).toMatch(/<header[^>]*>.*<a [^>]*href="\/content\/"[^>]*><img [^>]*alt="メンバーID"[^>]*><\/a>.*<\/header>/s);
  expect(html).toMatch(new RegExp(`<main[^>]*>\\s*<h1>${title}</h1>`));
  const footer = /<footer[^>]*>(.*)<\/footer>/s.exec(html)?.[1] ?? '';
  expect(footer).toContain('<a href="https://www.example.com/id/terms">ID利用規約</a>');
  expect(footer).toContain('<a href="https://www.example.com/cookie-policy">Cookieポリシー</a>');
  expect(footer).toContain('© 2023-2025 Credit Card Company, Inc.');
  const styles = [...html.matchAll(/<style>(.*?)<\/style>/gs)].map((m) => m[1] ?? '');
  expect(styles).toHaveLength(1);
  expect(styles[0]).toMatch(/\.main\{[^}]*max-width:700px/);
  const policy = String(res.headers['content-security-policy']);
  const styleSrc = /(?:^|;)\s*style-src ([^;]*)/.exec(policy)?.[1];
  expect(styleSrc).toBe(`'self' 'sha256-${createHash('sha256').update(styles[0]!).digest('base64')}'`);
  expect(policy).not.toContain('unsafe-inline');
  expect(/(?:^|;)\s*script-src ([^;]*)/.exec(policy)?.[1]).toBe("'self'");
  expect(html).not.toContain('<script');
}

/** An error page's button to login (SPEC.md section 2, "Error pages"): to the welcome page, where login starts. */
const loginButton = /<a class="button" href="\/content\/">ログインへ<\/a>/;

describe("the server's own pages wear the SPA's frame (SPEC.md section 2)", () => {
  const t = withTestApp('sqlite');
  const form = { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'same-origin' };

  it('the RP-initiated logout asks in the frame, its submit button styled as the SPA', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/auth/end_session?client_id=SIAP009' });
    expect(res.statusCode).toBe(200);
    expectFramed(res, LOGOUT_MESSAGES.confirmTitle);
    expect(res.body).toContain(`<button type="submit" class="button">${LOGOUT_MESSAGES.confirmButton}</button>`);
  });

  it('says the member is logged out in the frame, with the button to the welcome page', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/end_session', headers: form, payload: 'client_id=SIAP009&confirm=yes' });
    expect(res.statusCode).toBe(200);
    expectFramed(res, LOGOUT_MESSAGES.doneTitle);
    expect(res.body).toContain(`<a class="button" href="/content/">${LOGOUT_MESSAGES.toWelcome}</a>`);
  });

  it('shows a logout request that contradicts itself as an error page with a message and the button to login', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/auth/end_session?client_id=SIAP009&client_id=SIAP004' });
    expect(res.statusCode).toBe(400);
    expectFramed(res, LOGOUT_MESSAGES.invalidTitle);
    expect(res.body).toContain(LOGOUT_MESSAGES.invalid);
    expect(res.body).toMatch(loginButton);
  });

  it("shows the authorize endpoint's refusal of an unknown client or redirect URI as an error page, never redirected", async () => {
    for (const query of ['client_id=SIAP999&response_type=code', 'client_id=SIAP009&response_type=code&redirect_uri=https%3A%2F%2Fevil.example%2Fcb']) {
      for (const method of ['GET', 'POST'] as const) {
        const res = await t.app.inject({ method, url: `/api/auth/authorize?${query}`, headers: form, payload: '' });
        expect([res.statusCode, res.headers.location], `${method} ${query}`).toEqual([400, undefined]);
        expectFramed(res, 'リンクが無効です');
        expect(res.body).toContain(CLIENT_MESSAGES['C99-000404']);
        expect(res.body).toMatch(loginButton);
      }
    }
  });
});
