import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
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
  const queryClient = useQueryClient();
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
    queryClient.clear();
    void navigate('/', { replace: true });
  }, [navigate, queryClient]);
  const { pending, run } = usePendingAction(logout);
  return { logout: run, pending };
}
