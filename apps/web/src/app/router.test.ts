import type { RouteObject } from 'react-router';
import { beforeEach, describe, expect, it } from 'vitest';
import { stubBrowserGlobals } from '../lib/test-browser-globals.ts';
import { documentTitle, routeTitle } from './document-title.ts';
import { OPEN_CARD_HEADINGS } from '../features/upgrade/upgrade-steps.ts';
import { routes } from './router.tsx';

/** Every route with a path, with the title of its handle. */
const titled = (list: RouteObject[]): [string, unknown][] =>
  list.flatMap((r) => [...(r.path ? [[r.path, routeTitle([{ handle: r.handle }])] as [string, unknown]] : []), ...titled(r.children ?? [])]);

describe('every route has its own document title (where am I)', () => {
  beforeEach(() => void stubBrowserGlobals());

  it('names a Japanese title on every route of the router', () => {
    const all = titled(routes);
    expect(all.length).toBeGreaterThan(50);
    for (const [path, title] of all) expect(title, path).toMatch(/^[^\s].*[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u);
  });

  it('tells the screens apart: no two routes share a title, but the not-found page and the catch-all that behaves as it', () => {
    const byTitle = new Map<unknown, string[]>();
    for (const [path, title] of titled(routes)) byTitle.set(title, [...(byTitle.get(title) ?? []), path]);
    const shared = [...byTitle.values()].filter((paths) => paths.length > 1);
    expect(shared).toEqual([['/404', '*']]);
  });

  it('titles the open member\'s card screens by their headings, the check screens after their flow\'s name', () => {
    const title = new Map(titled(routes));
    const h = OPEN_CARD_HEADINGS;
    expect(title.get('/open/card')).toBe(h.card);
    expect(title.get('/open/card/otp')).toBe(`${h.card} ${h.otp}`);
    expect(title.get('/open/card/pin')).toBe(`${h.card} ${h.pin}`);
    expect(title.get('/open/card/numberless')).toBe(h.numberless);
    expect(title.get('/open/card/numberless/otp')).toBe(`${h.numberless} ${h.otp}`);
    expect(title.get('/open/card/done')).toBe(h.done);
  });

  it('titles the page "<route title> | メンバーID", the deepest titled route winning, and the product name alone without one', () => {
    expect(documentTitle('ログイン')).toBe('ログイン | メンバーID');
    expect(documentTitle(undefined)).toBe('メンバーID');
    expect(routeTitle([{ handle: undefined }, { handle: { title: 'トップ' } }, { handle: undefined }])).toBe('トップ');
    expect(routeTitle([{}, { handle: { other: 1 } }])).toBeUndefined();
  });
});
