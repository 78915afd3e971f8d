import * as client from 'openid-client';
import { expect } from 'vitest';
import { PARTNER_TERMS } from './direct-login-kit.ts';

/**
 * A relying party as a partner writes one, with the unmodified openid-client (v6, on oauth4webapi)
 * against a listening server (listening-app.ts): discovery, the code flow with PKCE and a nonce, the
 * ID token checked against the JWK Set (enableNonRepudiationChecks: the signature too, not only the
 * claims), refresh, userinfo. Only the login form is posted by hand, as the SPA's hidden form posts it.
 */

/** The confidential demo partners' published development secret (README "Demo data"). */
export const partnerSecret = (clientId: string) => `demo-secret-${clientId}`;

const CONFIDENTIAL = new Set(['SIAP002', 'SIAP004']);

/**
 * openid-client configured by discovery for `clientId`. `clockSkewS`: how far the server's clock is
 * ahead of this machine's (a test's manual clock), which the library adds to its own when it checks
 * `iat` and `exp`.
 */
export async function relyingParty(origin: string, clientId: string, clockSkewS = 0): Promise<client.Configuration> {
  const auth = CONFIDENTIAL.has(clientId) ? client.ClientSecretBasic(partnerSecret(clientId)) : client.None();
  return client.discovery(new URL(origin), clientId, { [client.clockSkew]: clockSkewS }, auth, {
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
  p: { origin: string; scope: string; user?: string; password?: string; extra?: Record<string, string> },
): Promise<SignedIn> {
  const clientId = config.clientMetadata().client_id;
  const verifier = client.randomPKCECodeVerifier();
  const nonce = client.randomNonce();
  const state = client.randomState();
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: callbackOf(p.origin, clientId),
    scope: p.scope,
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    nonce,
    ...p.extra,
  });
  const form = new URLSearchParams({ user_mail: p.user ?? 'demo.card@example.com', user_pass: p.password ?? 'Demo1234', recaptcha_token: 'oidc-test' });
  for (const term of PARTNER_TERMS[clientId] ?? []) form.append('terms', term);
  const login = await fetch(`${p.origin}/api/auth/authorize${url.search}`, { method: 'POST', body: form, redirect: 'manual' });
  expect(login.status).toBe(303);
  const tokens = await client.authorizationCodeGrant(config, new URL(login.headers.get('location') ?? ''), {
    pkceCodeVerifier: verifier,
    expectedNonce: nonce,
    expectedState: state,
  });
  const claims = tokens.claims();
  if (!claims) throw new Error('no ID token');
  return { tokens, claims, nonce };
}
