import { expect } from 'vitest';
import { openSignupResponseSchema } from '@sso/contracts/open-signup';
import type { TestApp } from './test-app.ts';
import { waitForMails } from './mailbox.ts';
import { newOpenEmail, newTel, openBody, OPEN_PASSWORD } from './signup-bodies.ts';

/** The valid bodies live in signup-bodies.ts, which the HTTP suites use too. */
export { newOpenEmail, newTel, openBody, OPEN_PASSWORD };

export const post = (t: TestApp, url: string, payload: unknown) => t.app.inject({ method: 'POST', url, payload: payload as object });
export const registerOpen = (t: TestApp, body: Record<string, unknown>) => post(t, '/api/signup/open', body);
export const activate = (t: TestApp, onetime_token: string) => post(t, '/api/signup/open/otp', { onetime_token });

/** The token of a link in a mail's text part, for the SPA page at `path`. */
export function linkToken(text: string, path: string): string | undefined {
  const escaped = path.replace(/[/?]/g, '\\$&');
  return new RegExp(`http://sso\\.test${escaped}\\?onetime_token=([A-Za-z0-9_-]{43})\\b`).exec(text)?.[1];
}

export const ACTIVATE_PATH = '/content/signup/open/activate';

/**
 * Registers for real (expecting the answer every register gets), waits for the `nth` mail to the
 * address and returns the activation token it carries.
 */
export async function registerForToken(t: TestApp, email: string, over: Record<string, unknown> = {}, nth = 1): Promise<string> {
  const res = await registerOpen(t, openBody(email, over));
  expect(res.statusCode, res.body).toBe(200);
  expect(openSignupResponseSchema.parse(res.json())).toEqual({ result_code: 0, result_message: '正常に処理しました。', email, links: [] });
  const [mail] = await waitForMails(t.app, email, nth);
  const token = linkToken(mail!.text, ACTIVATE_PATH);
  if (!token) throw new Error(`no activation link in the mail to ${email}: ${mail!.text}`);
  return token;
}

export const countRows = async (t: TestApp, table: 'users' | 'open_signups', email: string) =>
  Number(
    (await t.testDb.db.kysely.selectFrom(table).select((eb) => eb.fn.countAll().as('n')).where('email', '=', email).executeTakeFirstOrThrow()).n,
  );
