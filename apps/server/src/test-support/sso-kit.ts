import type { LightMyRequestResponse } from 'fastify';
import { CHALLENGE, exchange, TEST_ORIGIN, tokenRequest, VERIFIER, WEB_REDIRECT, type TestApp } from './test-app.ts';
import { UA } from './account-change-kit.ts';
import { authorizeQuery, codeGrant, partnerRedirect } from './oauth-client.ts';

/** The browsers of the SSO session tests (docs/decisions/0026-sso-session.md). */

/** A partner's request: its client and registered redirect URI. */
export const PARTNER = { clientId: 'SIAP005', redirectUri: partnerRedirect(TEST_ORIGIN, 'SIAP005') };
export const NET_ANSWER_CLIENT = { clientId: 'SIAP004', redirectUri: partnerRedirect(TEST_ORIGIN, 'SIAP004') };
export const WEB = { clientId: 'SIAP009', redirectUri: WEB_REDIRECT };

/** An authorization request's query: the client's, PKCE S256, and any OpenID Connect parameter (`nonce`, `prompt`, `max_age`). */
export function requestQuery(client: { clientId: string; redirectUri: string } = WEB, extra: Record<string, string> = {}): string {
  return authorizeQuery({ ...client, state: 'sso-state', challenge: CHALLENGE, override: extra }).toString();
}

/** Where an answer sends the browser. */
export const locationOf = (res: LightMyRequestResponse) => new URL(String(res.headers.location));
export const codeOf = (res: LightMyRequestResponse) => locationOf(res).searchParams.get('code');

/** The SPA's login page with a request's query, where a request the session cannot complete goes. */
export const loginPageOf = (query: string) => `${TEST_ORIGIN}/content/authorize?${query}`;

/**
 * A browser: the cookies the server set (kept and cleared as a browser keeps them, path aside: every
 * request here is under /api/auth), its User-Agent, and whether its requests come from another site.
 */
export class TestBrowser {
  readonly cookies = new Map<string, string>();
  constructor(public userAgent = UA) {}

  headers(extra: Record<string, string> = {}): Record<string, string> {
    const cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    return { 'user-agent': this.userAgent, ...(cookie ? { cookie } : {}), ...extra };
  }

  /** Keeps what Set-Cookie says; returns the raw Set-Cookie lines. */
  keep(res: LightMyRequestResponse): string[] {
    const lines = [res.headers['set-cookie'] ?? []].flat().map(String);
    for (const line of lines) {
      const [pair = '', ...attributes] = line.split(';');
      const at = pair.indexOf('=');
      const name = pair.slice(0, at);
      if (attributes.some((a) => /^\s*max-age=0$/i.test(a))) this.cookies.delete(name);
      else this.cookies.set(name, pair.slice(at + 1));
    }
    return lines;
  }

  /** A post of the SPA's page: its browser sends the issuer's Origin (http/own-origin-post.ts); `extra` may say otherwise. */
  postHeaders(extra: Record<string, string> = {}): Record<string, string> {
    return this.headers({ origin: TEST_ORIGIN, ...extra });
  }

  /** The login form's post (the SPA's hidden form after the password, or after a passkey with its ticket). */
  async login(t: TestApp, who: { email: string; password: string; ticket?: string }, query = requestQuery(), extra: Record<string, string> = {}) {
    const form = new URLSearchParams({ user_mail: who.email, user_pass: who.password, recaptcha_token: 'test' });
    if (who.ticket) form.set('login_ticket', who.ticket);
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/auth/authorize?${query}`,
      headers: this.postHeaders({ 'content-type': 'application/x-www-form-urlencoded', ...extra }),
      payload: form.toString(),
    });
    this.keep(res);
    return res;
  }

  /** A partner's link: GET /api/auth/authorize. */
  async authorize(t: TestApp, query = requestQuery()) {
    const res = await t.app.inject({ method: 'GET', url: `/api/auth/authorize?${query}`, headers: this.headers() });
    this.keep(res);
    return res;
  }

  /** The SPA's check before its login form. */
  async check(t: TestApp, query = requestQuery()) {
    return t.app.inject({ method: 'POST', url: '/api/auth/authorize/check', headers: this.headers(), payload: Object.fromEntries(new URLSearchParams(query)) });
  }

  /** The SPA's hidden form when the session completes the request, with the terms agreed on the additional-terms screen (and `confirmed`, decision 0027). */
  async continueSession(t: TestApp, query = requestQuery(), terms: string[] = [], extra: Record<string, string> = {}) {
    const form = new URLSearchParams({ continue_session: '1', ...extra });
    for (const term of terms) form.append('terms', term);
    return t.app.inject({
      method: 'POST',
      url: `/api/auth/authorize?${query}`,
      headers: this.postHeaders({ 'content-type': 'application/x-www-form-urlencoded' }),
      payload: form.toString(),
    });
  }

  /** The SPA's logout call. */
  async logout(t: TestApp) {
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: this.postHeaders(), payload: { client_id: 'SIAP009' } });
    this.keep(res);
    return res;
  }
}

/** A code of the web client exchanged for its tokens. */
export async function webTokens(t: TestApp, code: string | null) {
  const res = await exchange(t.app, code ?? '');
  if (res.statusCode !== 200) throw new Error(`token exchange failed: ${res.body}`);
  return res.json() as { access_token: string; refresh_token: string };
}

/** A portal app's code (PARTNER) exchanged as that public client exchanges it. */
export async function partnerTokens(t: TestApp, code: string | null) {
  const res = await tokenRequest(t.app, codeGrant({ code: code ?? '', ...PARTNER, verifier: VERIFIER }));
  if (res.statusCode !== 200) throw new Error(`token exchange failed: ${res.body}`);
  return res.json() as { access_token: string; refresh_token: string };
}
