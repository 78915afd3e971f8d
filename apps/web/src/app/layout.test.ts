import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { beforeEach, describe, expect, it } from 'vitest';
import { LINKS } from '../lib/links.ts';
import { stubBrowserGlobals } from '../lib/test-browser-globals.ts';
import { Frame } from './layout.tsx';

const render = (path: string) => renderToStaticMarkup(createElement(MemoryRouter, { initialEntries: [path] }, createElement(Frame, null, 'page')));
const header = (html: string) => html.slice(html.indexOf('<header'), html.indexOf('</header>'));

describe('the page frame (SPEC.md section 2)', () => {
  beforeEach(() => void stubBrowserGlobals());

  it('footer: the ID terms, the cookie policy and a copyright covering 2023 to 2025', () => {
    const html = render('/authorize');
    const footer = html.slice(html.indexOf('<footer'));
    expect(footer).toContain(`href="${LINKS.idTerms}"`);
    expect(footer).toContain(`href="${LINKS.cookiePolicy}"`);
    expect(footer).toMatch(/©\s*2023-2025/);
  });

  it('logged out, the logo links to the login page', () => {
    expect(header(render('/authorize'))).toMatch(/<a [^>]*href="\/"[^>]*><img[^>]*alt="メンバーID"/);
  });

  it('on the out-of-service and app-did-not-open pages the logo has no link', () => {
    for (const path of ['/503', '/problem/busy']) {
      const h = header(render(path));
      expect(h, path).toContain('alt="メンバーID"');
      expect(h, path).not.toContain('<a');
    }
  });
});
