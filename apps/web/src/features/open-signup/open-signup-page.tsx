import { useCallback, useEffect } from 'react';
import { Navigate, useLocation, useNavigate, useSearchParams } from 'react-router';
import { WEB_CLIENT_ID } from '@sso/contracts/constants';
import { useCommitAction } from '../../lib/use-member-form.ts';
import type { ActionOutcome } from '../../lib/use-pending-action.ts';
import { confirmSummary } from './confirm-summary.ts';
import { postOpenSignup, type OpenSignupFields } from './open-signup-api.ts';
import { OpenSignupConfirm } from './open-signup-confirm.tsx';
import { useOpenSignupForm } from './open-signup-form.ts';
import { OpenSignupInputs } from './open-signup-inputs.tsx';
import { holdSent } from './open-signup-store.ts';

/** The confirm mode is a history entry of its own, so that the browser's back button returns to the input. */
interface ModeState {
  mode?: 'confirm';
}

/**
 * Open sign-up (SPEC.md sections 2 and 4): the input mode; "確認する" validates on the server
 * (dry_run 1) and shows the confirm mode; "登録する" registers (dry_run 0) and goes to the sent
 * page; "修正する" goes back to the input with the values kept. The confirm mode needs a valid form,
 * otherwise it goes back (a reload loses the values). The service the sign-up started from is the
 * query's client_id, the web client by default.
 */
export function OpenSignupPage() {
  const navigate = useNavigate();
  const location = useLocation();
  const [search] = useSearchParams();
  const clientId = search.get('client_id') || WEB_CLIENT_ID;

  const check = useCallback(
    async (values: OpenSignupFields): Promise<ActionOutcome> => {
      await postOpenSignup(values, 1, clientId);
      void navigate({ pathname: location.pathname, search: location.search }, { state: { mode: 'confirm' } satisfies ModeState });
    },
    [clientId, navigate, location.pathname, location.search],
  );
  const { schema, form, message, setMessage, view, pending: checking, onSubmit } = useOpenSignupForm(check);

  const confirming = (location.state as ModeState | null)?.mode === 'confirm';
  // Read on every render of the confirm mode: the values are those of the form now, valid or not.
  const confirmed = confirming ? schema.safeParse(form.getValues()) : undefined;

  // A mode change keeps the path: scroll to the top as a page change does (SPEC.md section 2).
  useEffect(() => {
    window.scrollTo(0, 0);
  }, [confirming]);

  const backToInput = useCallback(() => void navigate(-1), [navigate]);

  const registerSignup = useCallback(
    async (values: OpenSignupFields): Promise<ActionOutcome> => {
      holdSent(await postOpenSignup(values, 0, clientId));
      void navigate('/signup/open/sent', { replace: true });
      return 'leaving';
    },
    [clientId, navigate],
  );
  const { pending: registering, run: runRegister } = useCommitAction(view, registerSignup, backToInput);

  if (confirming && !confirmed?.success) return <Navigate to={{ pathname: location.pathname, search: location.search }} replace />;

  if (confirmed?.success) {
    const values = confirmed.data;
    return (
      <OpenSignupConfirm
        rows={confirmSummary(values)}
        message={message}
        pending={registering}
        onRegister={() => void runRegister(values)}
        onEdit={() => {
          setMessage(undefined);
          backToInput();
        }}
      />
    );
  }

  return (
    <OpenSignupInputs
      form={form}
      clientId={clientId}
      message={message}
      pending={checking}
      onSubmit={onSubmit}
    />
  );
}
