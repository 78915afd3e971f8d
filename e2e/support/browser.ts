import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import AxeBuilder from '@axe-core/playwright';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { expect } from 'vitest';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const ARTIFACTS = fileURLToPath(new URL('../../.e2e-artifacts/', import.meta.url));

/** Debian's Chromium, headless, with the flags this closed network needs (no background traffic). */
export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-dev-shm-usage',
    ],
  });
}

/** Runs axe-core on the page as it is now and fails on any violation (WCAG 2.2 AA: every page visited). */
export async function expectAccessible(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle');
  const result = await new AxeBuilder({ page }).analyze();
  const violations = result.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
  expect(violations, `axe violations on ${page.url()}`).toEqual([]);
}

/** Saves a screenshot under .e2e-artifacts/ for a person to look at. */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });
}

/** Where documented screens go: docs/screens/ with UPDATE_SCREENS=1 (`npm run screens`), else .e2e-artifacts/. */
const SCREENS = process.env.UPDATE_SCREENS === '1' ? fileURLToPath(new URL('../../docs/screens/', import.meta.url)) : ARTIFACTS;

/**
 * Documents a screen at both widths a member uses, 375 px (mobile) and 1280 px (PC), checking it
 * with axe at each, and leaves the page at the width it had.
 */
export async function documentScreen(page: Page, name: string): Promise<void> {
  const before = page.viewportSize() ?? { width: 1280, height: 900 };
  mkdirSync(SCREENS, { recursive: true });
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: width === 375 ? 800 : 900 });
    await expectAccessible(page);
    await page.screenshot({ path: join(SCREENS, `${name}-${width}.png`), fullPage: true, animations: 'disabled', caret: 'hide' });
  }
  await page.setViewportSize(before);
}

/**
 * Makes every Content-Security-Policy violation on the context's pages a console error, which
 * watchConsole collects: a blocked script, style or eval is a defect even where the page still works
 * (zod's probe for `eval` was one, on every page that parsed a contract).
 */
export async function reportCspViolations(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => console.error(`CSP violation: ${e.violatedDirective} ${e.blockedURI}`));
  });
}

/**
 * Collects console errors and failed page scripts; a journey asserts there were none. Each console
 * error ends with the URL it is about in brackets (for a refused request, that request's URL), so that
 * a journey can let a refusal through for one endpoint only.
 */
export function watchConsole(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`console: ${m.text()} [${m.location().url}]`);
  });
  return errors;
}
