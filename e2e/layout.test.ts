import { describe, expect, it } from 'vitest';
import { logIn, pagePerTest, withSystem } from './support/journey.ts';

/** The page frame of SPEC.md section 2, measured in Chromium on a logged-in page. */
describe('page frame in Chromium', () => {
  const env = withSystem();
  const j = pagePerTest(env);

  async function logInToTop() {
    await j.page.goto('/content/');
    await j.page.waitForURL(/\/content\/authorize\?/);
    await logIn(j.page, 'demo.card@example.com', 'Demo1234');
    await j.page.waitForURL(/\/content\/top$/);
  }

  /** The main column's width and left padding, as laid out now. */
  const mainBox = () =>
    j.page.getByRole('main').evaluate((main) => ({ width: main.getBoundingClientRect().width, padding: getComputedStyle(main).paddingLeft }));

  it('frames the page 700 px wide on PC, from a 768 px wide window, and the whole width of a phone below', async () => {
    await logInToTop();
    expect(await mainBox()).toEqual({ width: 700, padding: '40px' });
    await j.page.setViewportSize({ width: 768, height: 900 });
    expect(await mainBox()).toEqual({ width: 700, padding: '40px' });
    // Below 768 px the mobile frame: its own padding, and a phone's whole width.
    await j.page.setViewportSize({ width: 767, height: 900 });
    expect((await mainBox()).padding).toBe('16px');
    await j.page.setViewportSize({ width: 375, height: 800 });
    expect(await mainBox()).toEqual({ width: 375, padding: '16px' });
  });

  it('shows the logo 22 px high on mobile and 30 px on PC, and the main text at 16 px', async () => {
    await logInToTop();
    const logoHeight = () => j.page.getByRole('img', { name: 'メンバーID' }).evaluate((img) => img.getBoundingClientRect().height);
    const fontSize = () => j.page.getByRole('main').evaluate((main) => getComputedStyle(main).fontSize);
    expect([await logoHeight(), await fontSize()]).toEqual([30, '16px']);
    await j.page.setViewportSize({ width: 375, height: 800 });
    expect([await logoHeight(), await fontSize()]).toEqual([22, '16px']);
  });

  it('shows the next page from its top after a page change', async () => {
    await logInToTop();
    // A window lower than the pages, so that the next page could stay scrolled down.
    await j.page.setViewportSize({ width: 1280, height: 200 });
    await j.page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    expect(await j.page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
    // A click event without Playwright's scrolling the link into view first.
    await j.page.getByRole('link', { name: '登録情報' }).dispatchEvent('click');
    await j.page.waitForURL(/\/content\/user$/);
    await expect.poll(() => j.page.getByText('demo.card@example.com').count()).toBeGreaterThan(0);
    const after = await j.page.evaluate(() => ({ y: window.scrollY, room: document.documentElement.scrollHeight - window.innerHeight }));
    expect(after.room).toBeGreaterThan(0);
    expect(after.y).toBe(0);
  });
});
