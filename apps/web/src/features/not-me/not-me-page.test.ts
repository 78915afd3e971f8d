import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { NOT_ME_SCREEN_TEXTS } from '@sso/contracts/not-me-screen';
import { stubBrowserGlobals, jsonResponse as json } from '../../lib/test-browser-globals.ts';
import { NotMePage } from './not-me-page.tsx';
import { reportNotMe } from './not-me-api.ts';

const render = (url: string) => renderToStaticMarkup(createElement(MemoryRouter, { initialEntries: [url] }, createElement(NotMePage)));

describe('the "not me" link\'s page (decision 0033)', () => {
  beforeEach(() => void stubBrowserGlobals());

  it('says what will happen before anything does, and offers 「すべての端末でログアウトする」', () => {
    const html = render('/not-me?token=t-1');
    expect(html).toContain(`<h1>${NOT_ME_SCREEN_TEXTS.title}</h1>`);
    for (const step of NOT_ME_SCREEN_TEXTS.steps) expect(html).toContain(step);
    expect(html).toContain(`${NOT_ME_SCREEN_TEXTS.button}</button>`);
  });

  it('shows nothing of it without a token (it goes to Welcome)', () => {
    expect(render('/not-me')).not.toContain(NOT_ME_SCREEN_TEXTS.button);
  });

  it('posts the link\'s token publicly, and gives a used or expired link as the server\'s 902', async () => {
    const fetchMock = vi.fn(async () => json(200, { result_code: 0, result_message: 'ok', reset_mailed: false }));
    vi.stubGlobal('fetch', fetchMock);
    expect((await reportNotMe('t-1')).reset_mailed).toBe(false);
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toMatch(/\/api\/auth\/not-me$/);
    expect(JSON.parse(init.body as string)).toEqual({ token: 't-1' });
    expect((init.headers as Record<string, string>).Authorization).toBeUndefined();
    const used = { result_code: 902, result_message: 'URLの有効期限が切れているか、既に使用されています。' };
    vi.stubGlobal('fetch', vi.fn(async () => json(400, used)));
    await expect(reportNotMe('t-1')).rejects.toMatchObject({ result: used });
  });
});
