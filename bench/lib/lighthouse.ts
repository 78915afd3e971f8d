import lighthouse from 'lighthouse';
import puppeteer, { type Page } from 'puppeteer-core';

/**
 * Lighthouse 12's performance score of the login and Top pages (budget: BUDGETS.lighthouse, lib/budgets.ts), with
 * its default settings: a mobile device emulated, the network and CPU throttled by simulation.
 * Lighthouse drives Debian's Chromium through puppeteer-core (CHROMIUM_PATH, as the journeys). Top
 * needs a member: a bench member logs in through the login form first, in the same tab, and
 * Lighthouse keeps the tab's storage for that run (the session lives in sessionStorage, SPEC.md
 * section 3), so that it measures Top itself and not the way back to the login.
 */
export interface PageScore {
  page: string;
  url: string;
  score: number;
  /** The metrics behind the score, in ms (CLS unitless). */
  metrics: Record<string, number>;
  /** The scores of every run, when this is the median of several. */
  runs?: number[];
}

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const METRICS = ['first-contentful-paint', 'largest-contentful-paint', 'total-blocking-time', 'cumulative-layout-shift', 'speed-index'] as const;

async function audit(page: Page, name: string, url: string, keepStorage: boolean): Promise<PageScore> {
  const result = await lighthouse(url, { onlyCategories: ['performance'], disableStorageReset: keepStorage, logLevel: 'error' }, undefined, page);
  const lhr = result?.lhr;
  if (!lhr) throw new Error(`Lighthouse gave no result for ${url}`);
  if (lhr.runtimeError) throw new Error(`Lighthouse on ${url}: ${lhr.runtimeError.message}`);
  const metrics = Object.fromEntries(METRICS.map((m) => [m, lhr.audits[m]?.numericValue ?? Number.NaN]));
  return { page: name, url: lhr.finalDisplayedUrl, score: Math.round((lhr.categories.performance?.score ?? 0) * 100), metrics };
}

async function logIn(page: Page, origin: string, member: Credentials): Promise<void> {
  await page.goto(`${origin}/content/`, { waitUntil: 'networkidle0' });
  await page.locator('::-p-aria(メールアドレスまたは携帯電話番号)').fill(member.email);
  await page.locator('::-p-aria(パスワード)').fill(member.password);
  await Promise.all([page.waitForNavigation({ waitUntil: 'networkidle0' }), page.locator('::-p-aria(ログイン[role="button"])').click()]);
  await page.waitForFunction("location.pathname === '/content/top'", { timeout: 20_000 });
}

/** The run of median score: Lighthouse's own guidance for its run-to-run variance is the median of several runs. */
const median = (runs: PageScore[]): PageScore => {
  const sorted = [...runs].sort((a, b) => a.score - b.score);
  const mid = sorted[Math.floor(sorted.length / 2)] as PageScore;
  return { ...mid, runs: runs.map((r) => r.score) };
};

/** Each page `runs` times (5 by default, as Lighthouse's guidance on variability advises), each run in a fresh tab, and the median run of each. */
/** The member whose Top is measured: a bench member (bench/lib/seed.ts), which a production start has as well as a development one. */
export interface Credentials {
  email: string;
  password: string;
}

export async function lighthouseScores(origin: string, member: Credentials, runs = 5): Promise<PageScore[]> {
  const browser = await puppeteer.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-dev-shm-usage'] });
  try {
    const login: PageScore[] = [];
    const top: PageScore[] = [];
    for (let i = 0; i < runs; i++) {
      // Each run in a browser context of its own, as a member's first visit: the login of a run
      // leaves the SSO session's cookie, and with it the next run's Welcome would go straight to
      // Top (docs/decisions/0026-sso-session.md): the login route would not be measured, and the
      // login form the next run fills would never come (the production run's time-out of 2026-11-27).
      const context = await browser.createBrowserContext();
      try {
        // The login route as a member reaches it: Welcome (`/content/`) makes the SPA's PKCE client and
        // sends the browser on to /content/authorize with the authorize parameters, as a partner's link does.
        const loginPage = await context.newPage();
        await loginPage.goto(`${origin}/content/`, { waitUntil: 'networkidle0' });
        login.push(await audit(loginPage, 'login', loginPage.url(), false));
        await loginPage.close();
        const topPage = await context.newPage();
        await logIn(topPage, origin, member);
        top.push(await audit(topPage, 'Top', `${origin}/content/top`, true));
      } finally {
        await context.close();
      }
    }
    return [median(login), median(top)];
  } finally {
    await browser.close();
  }
}
