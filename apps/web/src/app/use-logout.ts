import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { apiPost } from '../lib/api-client.ts';
import { clearOAuthClient, clearTokens, getTokenRecord } from '../lib/records.ts';

/** Logout revokes the token, clears local state and goes to Welcome (SPEC.md section 4). */
export function useLogout() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [pending, setPending] = useState(false);
  const logout = async () => {
    if (pending) return;
    setPending(true);
    const t = getTokenRecord();
    if (t.refreshToken && t.clientId) {
      await apiPost('/api/auth/revoke', {
        auth: true,
        form: { token: t.refreshToken, token_type_hint: 'refresh_token', client_id: t.clientId },
      }).catch(() => undefined);
    }
    clearTokens();
    clearOAuthClient();
    queryClient.clear();
    setPending(false);
    navigate('/', { replace: true });
  };
  return { logout, pending };
}
