import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { logOut } from '../lib/logout.ts';
import { usePendingAction, type ActionOutcome } from '../lib/use-pending-action.ts';

/** The header's logout button (SPEC.md section 2, "Logout"): lib/logout.ts, one click at a time. */
export function useLogout() {
  const navigate = useNavigate();
  const logout = useCallback(async (): Promise<ActionOutcome> => logOut(navigate), [navigate]);
  const { pending, run } = usePendingAction(logout);
  return { logout: run, pending };
}
