import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { beforeEach, describe, expect, it } from 'vitest';
import { LINKS } from '../../lib/links.ts';
import { saveSession } from '../../lib/records.ts';
import { stubBrowserGlobals } from '../../lib/test-browser-globals.ts';
import { LoginPage } from './login-page.tsx';

const render = (query: string) =>
  renderToStaticMarkup(createElement(MemoryRouter, { initialEntries: [`/authorize?${query}`] }, createElement(LoginPage)));
const authorize = (clientId: string) => `client_id=${clientId}&redirect_uri=${encodeURIComponent('https://partner.test/cb')}&state=s`;

describe('login links (SPEC.md section 2)', () => {
  beforeEach(() => void stubBrowserGlobals());

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
