import { createElement, type ComponentType } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { beforeEach, describe, expect, it } from 'vitest';
import { CLIENT_MESSAGES, SERVER_MESSAGES, SIGNUP_MESSAGES, TEXTS } from '@sso/contracts/messages';
import { setEphemeralMessage } from '../../lib/ephemeral-message.ts';
import { LINKS } from '../../lib/links.ts';
import { stubBrowserGlobals } from '../../lib/test-browser-globals.ts';
import { BusyPage, NotFoundPage, OutOfServicePage, PartnerMistakePage, ServerErrorPage, SignupChatbotPage, SignupInfoPage } from './error-routes.tsx';

/** The page as the member's browser first receives it. */
const render = (page: ComponentType) => renderToStaticMarkup(createElement(MemoryRouter, null, createElement(page)));

describe('the error routes show the texts of SPEC.md section 8', () => {
  beforeEach(() => void stubBrowserGlobals());

  it('not found: the not-found message, C99-000404 and the ID landing page', () => {
    const html = render(NotFoundPage);
    expect(html).toContain(TEXTS.notFound);
    expect(html).toContain(CLIENT_MESSAGES['C99-000404']);
    expect(html).toContain(`href="${LINKS.idLanding}"`);
  });

  it('unexpected error and out of service: their message and the support contact', () => {
    expect(render(ServerErrorPage)).toContain(CLIENT_MESSAGES['C99-000999']);
    expect(render(OutOfServicePage)).toContain(SERVER_MESSAGES.outOfService);
    for (const page of [ServerErrorPage, OutOfServicePage]) expect(render(page)).toContain(`href="${LINKS.support}"`);
  });

  it('the app that did not open: 処理に時間がかかっています with C99-000600', () => {
    const html = render(BusyPage);
    expect(html).toContain(`<h1>${TEXTS.slow}</h1>`);
    expect(html).toContain(CLIENT_MESSAGES['C99-000600']);
  });

  it('card sign-up 903: 登録できませんでした with the guide', () => {
    const html = render(SignupInfoPage);
    expect(html).toContain(`<h1>${TEXTS.registerFailed}</h1>`);
    expect(html).toContain(SIGNUP_MESSAGES.infoGuide);
  });

  it('card sign-up 904: the ご本人様確認ができません page with the chat-bot', () => {
    const html = render(SignupChatbotPage);
    expect(html).toContain(`<h1>${TEXTS.identityUnconfirmed}</h1>`);
    expect(html).toContain(`href="${LINKS.chatbot}"`);
  });

  it('/500 shows the support reference the server answered, for the member to quote; none without one', () => {
    setEphemeralMessage('予期しない問題のため処理できませんでした。', '3f2a9c1b');
    expect(render(ServerErrorPage)).toMatch(/お問い合わせ番号: <span[^>]*>3f2a9c1b<\/span>/);
    setEphemeralMessage('ネットワークが重たいため処理できませんでした。');
    expect(render(ServerErrorPage)).not.toContain('お問い合わせ番号');
    expect(render(ServerErrorPage)).not.toContain('お問い合わせ番号');
  });

  it('a partner\'s wrong link: says the link is not valid and whom to ask, with no password field', () => {
    const html = render(PartnerMistakePage);
    expect(html).toContain('<h1>リンクが無効です</h1>');
    expect(html).toContain('リンクを開いたサービスの提供元にお問い合わせください。');
    expect(html).not.toContain('type="password"');
  });
});
