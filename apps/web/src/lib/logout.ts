import type { NavigateFunction } from 'react-router';
import { apiPost, refreshSettled } from './api-client.ts';
import { clearOAuthClient, clearTokens, getTokenRecord, markSilentLoginTried, markTokensEnding } from './records.ts';

/**
 * Logout (SPEC.md section 4): ends this browser's SSO session with every token that came from it
 * (/api/auth/logout, docs/decisions/0026-sso-session.md), revokes the refresh token (RFC 7009,
 * /api/auth/revoke with the Bearer header: a login that came from no session), clears the token and
 * the OAuth client, and goes to Welcome, which then goes straight to the login page: the silent login
 * is not tried again in this tab. Local state is cleared even if the calls fail; a 401 there must not
 * start a refresh or the error flow. A refresh already in flight (on entry to the page, or the
 * scheduled one) is over first: ended under it, the session would refuse it, and the refusal would
 * take the member to the re-login message; and the refresh token revoked is the one it left.
 */
export async function logOut(navigate: NavigateFunction): Promise<void> {
  await refreshSettled();
  const t = getTokenRecord();
  // From here the session is ending: a screen's request that its end refuses is the logout's doing.
  markTokensEnding();
  await apiPost('/api/auth/logout', 'baseResponseSchema', { json: { client_id: t.clientId }, refreshOn401: false }).catch(() => undefined);
  if (t.refreshToken && t.clientId) {
    await apiPost('/api/auth/revoke', 'revocationResponseSchema', {
      auth: true,
      refreshOn401: false,
      form: { token: t.refreshToken, token_type_hint: 'refresh_token', client_id: t.clientId },
    }).catch(() => undefined);
  }
  clearTokens();
  clearOAuthClient();
  markSilentLoginTried();
  // The cache is cleared once the member's screens are gone: while Welcome's chunk loads,
  // a screen still shown would fetch its cleared queries again, with no token, into the error flow.
  // Its module loads lazily, the header being in every route's JavaScript; if it cannot load now,
  // it never loaded, and there is no cache to clear.
  await navigate('/', { replace: true });
  await import('./query-client.ts').then(({ queryClient }) => queryClient.clear(), () => undefined);
}
