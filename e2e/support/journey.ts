import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest';
import { authorizeQuery, FIXED_PKCE, partnerRedirect } from '@sso/server/test-support';
import { launchBrowser, reportCspViolations, watchConsole } from './browser.ts';
import { startSystem, type RunningSystem, type SystemOptions } from './server.ts';

/** The most of a server's log a failed journey prints: its last lines. */
const FAILED_LOG_LINES = 200;
/** Longer than the server holds a line in its buffer (a second: apps/server/src/http/log-destination.ts). */
const LOG_WRITTEN_MS = 1_500;

/** A JSON log line's time (pino's `time`, in ms); undefined for any other line. */
function lineTime(line: string): number | undefined {
  const m = /^\{"level":\d+,"time":(\d+)/.exec(line);
  return m ? Number(m[1]) : undefined;
}

/**
 * The server log of the enclosing describe block's system, kept for its failed tests: the server
 * writes every line, its request lines too (LOG_LEVEL=info), to a file of its own, and a test that
 * fails prints the last lines written while it ran (once the server has written what it buffered),
 * after what the test itself says of the page.
 * Gives the options for startSystem, with the caller's own merged in.
 */
export function keptServerLog(): (options?: SystemOptions) => SystemOptions {
  let logFile: string | undefined;
  beforeEach(({ task, onTestFailed }) => {
    const since = Date.now();
    onTestFailed(async () => {
      await new Promise((r) => setTimeout(r, LOG_WRITTEN_MS));
      if (!logFile || !existsSync(logFile)) return;
      // Each JSON line by its own time: the test before's may be written after this one began.
      const lines = readFileSync(logFile, 'utf8')
        .split('\n')
        .filter((line) => line !== '' && (lineTime(line) ?? since) >= since)
        .slice(-FAILED_LOG_LINES);
      process.stderr.write(`\nThe server's log while "${task.name}" ran (its last ${lines.length} lines):\n${lines.join('\n')}\n`);
    });
  });
  afterAll(() => {
    if (logFile) rmSync(dirname(logFile), { recursive: true, force: true });
  });
  return (options = {}) => {
    logFile ??= join(mkdtempSync(join(tmpdir(), 'sso-journey-log-')), 'server.log');
    return { ...options, logFile, env: { LOG_LEVEL: 'info', ...options.env } };
  };
}

/** Starts the system and Chromium for the enclosing describe block, and stops both after it. */
export function withSystem(): { system: RunningSystem; browser: Browser } {
  const ctx = {} as { system: RunningSystem; browser: Browser };
  const logged = keptServerLog();
  beforeAll(async () => {
    [ctx.system, ctx.browser] = await Promise.all([startSystem(logged()), launchBrowser()]);
  });
  afterAll(async () => {
    await ctx.browser?.close();
    await ctx.system?.stop();
  });
  return ctx;
}

export interface JourneyPage {
  context: BrowserContext;
  page: Page;
  /** Console errors and failed page scripts of the page, as they come. */
  consoleErrors: string[];
}

/**
 * A fresh browser context on the running system, Japanese, PC-sized unless told otherwise, with
 * Chromium's own User-Agent unless another is given (an in-app browser's, for example).
 */
export async function openPage(
  env: { system: RunningSystem; browser: Browser },
  viewport = { width: 1280, height: 900 },
  userAgent?: string,
): Promise<JourneyPage> {
  const context = await env.browser.newContext({ baseURL: env.system.origin, locale: 'ja-JP', viewport, ...(userAgent ? { userAgent } : {}) });
  await reportCspViolations(context);
  const page = await context.newPage();
  return { context, page, consoleErrors: watchConsole(page) };
}

/**
 * A fresh page for each test of the enclosing block. After each test the page must have logged no
 * error, except what the test itself took off `consoleErrors` as expected; then its context closes.
 */
export function pagePerTest(env: { system: RunningSystem; browser: Browser }): JourneyPage {
  const ctx = {} as JourneyPage;
  beforeEach(async () => {
    Object.assign(ctx, await openPage(env));
  });
  afterEach(async () => {
    const errors = [...ctx.consoleErrors];
    await ctx.context.close();
    expect(errors).toEqual([]);
  });
  return ctx;
}

/** Fills and submits the login form as a member would, by the labels they read. */
export async function fillLogin(page: Page, id: string, password: string): Promise<void> {
  await page.getByLabel('メールアドレスまたは携帯電話番号').fill(id);
  await page.getByLabel('パスワード', { exact: true }).fill(password);
}

export async function logIn(page: Page, id: string, password: string): Promise<void> {
  await fillLogin(page, id, password);
  await page.getByRole('button', { name: 'ログイン', exact: true }).click();
}

/**
 * Opens a protected route logged out, logs in at the login page the guard sends the member to, and
 * waits to be back on the route (SPEC.md section 2: the guard saves the route and restores it once).
 */
export async function logInAt(page: Page, path: string, id: string, password: string): Promise<void> {
  await page.goto(`/content${path}`);
  await page.waitForURL(/\/content\/authorize\?/);
  await logIn(page, id, password);
  await page.waitForURL(new RegExp(`/content${path.replace(/[?]/g, '\\?')}$`));
}

/**
 * The SPA's login URL as a partner sends a member there (SPEC.md section 2): the partner's demo
 * callback as redirect URI, `openid`, and a fixed PKCE S256 challenge (RFC 7636).
 */
export const partnerAuthorizePath = (origin: string, clientId: string, state: string): string =>
  `/content/authorize?${authorizeQuery({ clientId, redirectUri: partnerRedirect(origin, clientId), state, scope: 'openid', challenge: FIXED_PKCE.challenge }).toString()}`;
