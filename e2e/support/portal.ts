import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { authorize, codeGrant, pkce, tokenRequest } from '@sso/server/test-support';

const PROOF = pkce('direct-login-journey-verifier-0123456789-abcdefgh');

export interface Member {
  email: string;
  password: string;
}

/** Logs a member in to a client through the API, as that app would (code flow with PKCE): the access token. */
export async function apiTokens(origin: string, clientId: string, redirectUri: string, member: Member): Promise<string> {
  const authorized = await authorize(origin, { clientId, redirectUri, state: 'api-login', pkce: PROOF, user: member.email, password: member.password, recaptcha: 'e2e' });
  const code = new URL(authorized.headers.get('location') ?? '').searchParams.get('code');
  expect(code).toBeTruthy();
  const token = await tokenRequest(origin, codeGrant({ code: code!, clientId, redirectUri, verifier: PROOF.verifier }));
  expect(token.status).toBe(200);
  return (token.json as { access_token: string }).access_token;
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
