import * as client from 'openid-client';
import { expect } from 'vitest';
import { PARTNER_TERMS } from './direct-login-kit.ts';

/**
 * A relying party as a partner writes one, with the unmodified openid-client (v6, on oauth4webapi)
 * against a listening server (listening-app.ts): discovery, the code flow with PKCE and a nonce, the
 * ID token checked against the JWK Set (enableNonRepudiationChecks: the signature too, not only the
 * claims), refresh, userinfo. Only the login form is posted by hand, as the SPA's hidden form posts it.
 */

/** The confidential demo partners' published development secret (docs/demo.md "Demo data"). */
export const partnerSecret = (clientId: string) => `demo-secret-${clientId}`;

const CONFIDENTIAL = new Set(['SIAP002', 'SIAP004']);

/**
 * The ID token algorithm each demo client registered (config/clients.json; decision 0034): the
 * partners take the default, RS256, the member's own apps name ES256.
 */
export const registeredAlg = (clientId: string): 'RS256' | 'ES256' => (CONFIDENTIAL.has(clientId) ? 'RS256' : 'ES256');

/**
 * openid-client configured by discovery for `clientId`, declaring the ID token algorithm the client
 * registered (the library then refuses any other), or the client metadata `declared` says.
 * `clockSkewS`: how far the server's clock is ahead of this machine's (a test's manual clock), which
 * the library adds to its own when it checks `iat` and `exp`.
 */
export async function relyingParty(origin: string, clientId: string, clockSkewS = 0, declared: Partial<client.ClientMetadata> = {}): Promise<client.Configuration> {
  const auth = CONFIDENTIAL.has(clientId) ? client.ClientSecretBasic(partnerSecret(clientId)) : client.None();
  const metadata = { id_token_signed_response_alg: registeredAlg(clientId), ...declared, [client.clockSkew]: clockSkewS };
  return client.discovery(new URL(origin), clientId, metadata, auth, {
    execute: [client.allowInsecureRequests, client.enableNonRepudiationChecks],
  });
}

/** Where each client's code comes back in these tests: the demo partner page (config/clients.json). */
export const callbackOf = (origin: string, clientId: string) => (clientId === 'SIAP009' ? `${origin}/content/oauth/callback` : `${origin}/dev/partner/${clientId}/callback`);

export interface SignedIn {
  tokens: Awaited<ReturnType<typeof client.authorizationCodeGrant>>;
  /** The ID token's claims as openid-client validated them. */
  claims: client.IDToken;
  nonce: string;
}

/**
 * A member signs in to the relying party: its authorization URL (PKCE S256, state, nonce), the login
 * form posted to it as the SPA posts it (with the partner's terms), and the code grant, which checks
 * the state, the nonce, and the ID token's signature and claims.
 */
export async function signIn(
  config: client.Configuration,
  p: { origin: string; scope: string; user?: string; password?: string; extra?: Record<string, string>; browser?: CookieJar; dpop?: client.DPoPHandle },
): Promise<SignedIn> {
  const request = await authorizationRequest(config, p);
  const login = await postLogin(config, request.url, p);
  expect(login.status).toBe(303);
  return request.grant(login.headers.get('location') ?? '');
}

/**
 * The member's login form posted to the authorization URL `url` as the SPA's hidden form posts it
 * (with the partner's terms); the answer is the authorize endpoint's, a 303 to the redirect URI on success.
 */
export function postLogin(config: client.Configuration, url: URL, p: { origin: string; user?: string; password?: string; browser?: CookieJar }): Promise<Response> {
  const form = new URLSearchParams({ user_mail: p.user ?? 'demo.card@example.com', user_pass: p.password ?? 'Demo1234', recaptcha_token: 'oidc-test' });
  for (const term of PARTNER_TERMS[config.clientMetadata().client_id] ?? []) form.append('terms', term);
  // The SPA's hidden form: its browser sends the issuer's Origin (http/own-origin-post.ts).
  return (p.browser ?? new CookieJar()).fetch(`${p.origin}/api/auth/authorize${url.search}`, { method: 'POST', body: form, headers: { origin: p.origin } });
}

/** A browser's cookies, kept from each answer's Set-Cookie and sent back with every request (all of them are under /api/auth). */
export class CookieJar {
  readonly cookies = new Map<string, string>();

  async fetch(url: string | URL, init: RequestInit = {}): Promise<Response> {
    const cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const res = await fetch(url, { ...init, redirect: 'manual', headers: { ...(init.headers as Record<string, string>), ...(cookie ? { cookie } : {}) } });
    for (const line of res.headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';');
      const at = pair.indexOf('=');
      if (attributes.some((a) => /^\s*max-age=0$/i.test(a))) this.cookies.delete(pair.slice(0, at));
      else this.cookies.set(pair.slice(0, at), pair.slice(at + 1));
    }
    return res;
  }
}

/**
 * The relying party's authorization URL (PKCE S256, state, nonce; `extra`: prompt, max_age; `dpop`: its DPoP key) and the
 * code grant of the redirect it gets back, which checks the state, the nonce, and the ID token's
 * signature and claims; an error redirect (`login_required`) is thrown as openid-client throws it.
 */
export async function authorizationRequest(config: client.Configuration, p: { origin: string; scope: string; extra?: Record<string, string>; dpop?: client.DPoPHandle }) {
  const verifier = client.randomPKCECodeVerifier();
  const nonce = client.randomNonce();
  const state = client.randomState();
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: callbackOf(p.origin, config.clientMetadata().client_id),
    scope: p.scope,
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    nonce,
    ...p.extra,
  });
  const grant = async (location: string): Promise<SignedIn> => {
    const checks = { pkceCodeVerifier: verifier, expectedNonce: nonce, expectedState: state };
    // With a DPoP handle the library sends its proofs and retries once with the server's nonce (RFC 9449 section 8).
    const tokens = await client.authorizationCodeGrant(config, new URL(location), checks, undefined, p.dpop ? { DPoP: p.dpop } : undefined);
    const claims = tokens.claims();
    if (!claims) throw new Error('no ID token');
    return { tokens, claims, nonce };
  };
  return { url, grant };
}
