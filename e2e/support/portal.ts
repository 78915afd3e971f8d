import { createHash } from 'node:crypto';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';

const VERIFIER = 'direct-login-journey-verifier-0123456789-abcdefgh';

export interface Member {
  email: string;
  password: string;
}

/** Logs a member in to a client through the API, as that app would (code flow with PKCE): the access token. */
export async function apiTokens(origin: string, clientId: string, redirectUri: string, member: Member): Promise<string> {
  const query = new URLSearchParams({
    client_id: clientId,
    redirect_uri: redirectUri,
    state: 'api-login',
    response_type: 'code',
    code_challenge: createHash('sha256').update(VERIFIER).digest('base64url'),
    code_challenge_method: 'S256',
  });
  const authorized = await fetch(`${origin}/api/auth/authorize?${query.toString()}`, {
    method: 'POST',
    body: new URLSearchParams({ user_mail: member.email, user_pass: member.password, recaptcha_token: 'e2e' }),
    redirect: 'manual',
  });
  const code = new URL(authorized.headers.get('location') ?? '').searchParams.get('code');
  expect(code).toBeTruthy();
  const token = await fetch(`${origin}/api/auth/token`, {
    method: 'POST',
    body: new URLSearchParams({ grant_type: 'authorization_code', code: code!, client_id: clientId, redirect_uri: redirectUri, code_verifier: VERIFIER }),
  });
  expect(token.status).toBe(200);
  return ((await token.json()) as { access_token: string }).access_token;
}

/** POSTs JSON with a Bearer token, as an app would; the answer's body. */
export async function bearerPost(origin: string, path: string, access: string, body: unknown = {}): Promise<Record<string, unknown>> {
  const res = await fetch(`${origin}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${access}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return (await res.json()) as Record<string, unknown>;
}

/** The link a portal app opens the SPA with: a one-time token of the member's portal session (decision 0006). */
export async function portalLink(origin: string, member: Member, target = 'portal_card_add'): Promise<string> {
  const portal = await apiTokens(origin, 'SIAP005', `${origin}/dev/partner/SIAP005/callback`, member);
  const issued = await bearerPost(origin, '/api/auth/user_onetime_token', portal);
  expect(issued.result_code).toBe(0);
  const query = new URLSearchParams({ one_time_token: String(issued.onetime_token), target, param: 'portal-state-1' });
  return `/api/redirect/user_one_time_token?${query.toString()}`;
}

/**
 * Opens the SPA from the portal app, logged in by a one-time token (a direct login), on the page
 * of the target (the card list unless told): a session in which the member has not typed the
 * password (decision 0012).
 */
export async function openFromPortal(page: Page, origin: string, member: Member, target = 'portal_card_add', lands = /\/content\/subusers\/all$/): Promise<void> {
  await page.goto(await portalLink(origin, member, target));
  await page.waitForURL(lands);
  await expect.poll(() => page.getByRole('button', { name: 'ログアウト' }).count()).toBe(1);
}
