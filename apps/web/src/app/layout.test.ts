import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { beforeEach, describe, expect, it } from 'vitest';
import { LINKS } from '../lib/links.ts';
import { authorizeParams, ensureOAuthClient, saveTokens } from '../lib/records.ts';
import { stubBrowserGlobals } from '../lib/test-browser-globals.ts';
import { Frame } from './layout.tsx';

/** The frame around a page at `path`, in a data router as the app has it. */
const render = (path: string) =>
  renderToStaticMarkup(
    createElement(RouterProvider, { router: createMemoryRouter([{ path: '*', element: createElement(Frame, null, 'page') }], { initialEntries: [path] }) }),
  );
const header = (html: string) => html.slice(html.indexOf('<header'), html.indexOf('</header>'));
const logIn = () => saveTokens({ clientId: 'SIAP009', redirectUri: 'http://sso.test/content/oauth/callback', accessToken: 'a', refreshToken: 'r' });

describe('the page frame (SPEC.md section 2)', () => {
  beforeEach(() => void stubBrowserGlobals());

  it('footer: the ID terms, the cookie policy and a copyright covering 2023 to 2025', () => {
    const html = render('/authorize');
    const footer = html.slice(html.indexOf('<footer'));
    expect(footer).toContain(`href="${LINKS.idTerms}"`);
    expect(footer).toContain(`href="${LINKS.cookiePolicy}"`);
    expect(footer).toMatch(/©\s*2023-2025/);
  });

  it('logged out, the logo links to the login route itself with the saved OAuth client, not to Welcome', async () => {
    const client = await ensureOAuthClient();
    const href = `/authorize?${authorizeParams(client).toString()}`.replaceAll('&', '&amp;');
    for (const path of ['/authorize', '/404', '/500', '/signup/card']) {
      const h = header(render(path));
      expect(h, path).toContain(`href="${href}"`);
      expect(h, path).toMatch(/<a [^>]*><img[^>]*alt="メンバーID"/);
    }
  });

  it('logged out, on the out-of-service and app-did-not-open pages the logo has no link', () => {
    for (const path of ['/503', '/problem/busy']) {
      const h = header(render(path));
      expect(h, path).toContain('alt="メンバーID"');
      expect(h, path).not.toContain('<a');
    }
  });

  it('logged in, the 404, 500, 503, /problem/busy and catch-all pages have the logged-in header: the logo to Top and logout', () => {
    logIn();
    for (const path of ['/404', '/500', '/503', '/problem/busy', '/no/such/page']) {
      const h = header(render(path));
      expect(h, path).toMatch(/<a [^>]*href="\/top"[^>]*><img[^>]*alt="メンバーID"/);
      expect(h, path).toContain('ログアウト');
    }
  });
});
