import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { apiPost } from '../lib/api-client.ts';
import { clearOAuthClient, clearTokens, getTokenRecord } from '../lib/records.ts';
import { usePendingAction, type ActionOutcome } from '../ui/use-pending-action.ts';

/**
 * Logout (SPEC.md section 4): revokes the refresh token (RFC 7009, /api/auth/revoke with the Bearer
 * header), clears the token and the OAuth client, and goes to Welcome. Local state is cleared even
 * if the revoke fails; a 401 there must not start a refresh or the error flow.
 */
export function useLogout() {
  const navigate = useNavigate();
  const logout = useCallback(async (): Promise<ActionOutcome> => {
    const t = getTokenRecord();
    if (t.refreshToken && t.clientId) {
      await apiPost('/api/auth/revoke', {
        auth: true,
        refreshOn401: false,
        form: { token: t.refreshToken, token_type_hint: 'refresh_token', client_id: t.clientId },
      }).catch(() => undefined);
    }
    clearTokens();
    clearOAuthClient();
    // The cache is cleared once the member's screens are gone: while Welcome's chunk loads,
    // a screen still shown would fetch its cleared queries again, with no token, into the error flow.
    // Its module loads lazily, the header being in every route's JavaScript; if it cannot load now,
    // it never loaded, and there is no cache to clear.
    await navigate('/', { replace: true });
    await import('../lib/query-client.ts').then(({ queryClient }) => queryClient.clear(), () => undefined);
  }, [navigate]);
  const { pending, run } = usePendingAction(logout);
  return { logout: run, pending };
}
