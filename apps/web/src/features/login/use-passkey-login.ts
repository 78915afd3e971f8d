import { useCallback, useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import type { AuthenticationResponseJSON } from '@simplewebauthn/browser';
import { usePendingAction, type ActionOutcome } from '../../lib/use-pending-action.ts';
import { continueLogin } from './login-continuation.ts';
import { showLoginFailure, type LoginFailureView } from './login-failure.ts';

/** The sign-in's steps and the WebAuthn library, loaded on demand (passkey-sign-in.ts). */
const steps = () => import('./passkey-sign-in.ts');

/** The browser has WebAuthn (lib/webauthn.ts's webauthnSupported, without loading that module here). */
const hasWebAuthn = () => typeof globalThis.PublicKeyCredential === 'function';

/**
 * The passkey sign-in of the login page (docs/decisions/0024-passkeys.md). `authorize` is the request
 * the login is for, once the page offers the login (undefined before). It gives:
 * - `supported`: the browser has WebAuthn; without it the page offers no passkey button;
 * - `autofill`: the browser offers passkeys in the id field's autofill (conditional mediation): the
 *   id field then says `autocomplete="username webauthn"`, and a conditional ceremony waits from the
 *   page's load for the member to pick a passkey there;
 * - `signIn`: the explicit ceremony of 「パスキーでログイン」, which aborts the waiting one (the
 *   library's WebAuthnAbortService); `pending` while it runs.
 * A passkey the server accepts goes on exactly as a password login (login-continuation.ts). A
 * ceremony the browser ends shows PASSKEY_MESSAGES.cancelled for the button and nothing for the
 * autofill (the member asked for nothing); a refused passkey shows the server's message as a wrong
 * password does (login-failure.ts). Once an attempt ends without leaving, the autofill waits again.
 */
export function usePasskeyLogin(authorize: URLSearchParams | undefined, setMessage: LoginFailureView['setMessage']) {
  const navigate = useNavigate();
  const [supported] = useState(hasWebAuthn);
  const [autofill, setAutofill] = useState(false);
  // Counts the attempts that ended on this page: each starts the autofill's ceremony again.
  const [round, setRound] = useState(0);
  const clientId = authorize?.get('client_id') ?? '';

  const attempt = useCallback(
    async (chosen?: AuthenticationResponseJSON): Promise<ActionOutcome> => {
      if (!authorize) return;
      setMessage(undefined);
      let outcome: ActionOutcome = undefined;
      try {
        const { passkeyLoginStep } = await steps();
        outcome = continueLogin(await passkeyLoginStep(clientId, chosen), authorize, () => void navigate('/accept/additional_terms'));
      } catch (e) {
        // A module that did not load is the network failing (showLoginFailure's C99-000700).
        const shown = await steps().then((m) => m.ceremonyFailureMessage(e), () => undefined);
        if (shown) setMessage(shown);
        else outcome = showLoginFailure(e, { setMessage });
      }
      if (outcome !== 'leaving') setRound((n) => n + 1);
      return outcome;
    },
    [authorize, clientId, navigate, setMessage],
  );
  const { pending, run } = usePendingAction(attempt);
  // The autofill's ceremony hands its passkey to the latest `run`; it is not started over when `run` changes.
  const latestRun = useRef(run);
  useEffect(() => {
    latestRun.current = run;
  }, [run]);

  const offered = supported && authorize !== undefined;
  useEffect(() => {
    if (!offered) return;
    let live = true;
    void steps()
      .then((m) => m.autofillSupported())
      .then((yes) => {
        if (live) setAutofill(yes);
      }, () => undefined);
    return () => {
      live = false;
    };
  }, [offered]);

  // The conditional ceremony, once the id field says "webauthn" (the library looks for it).
  useEffect(() => {
    if (!autofill) return;
    let live = true;
    void steps()
      .then((m) => m.autofillChoice(clientId, () => live))
      .then((chosen) => {
        if (chosen && live) void latestRun.current(chosen);
      }, () => undefined);
    return () => {
      live = false;
      void steps().then((m) => m.cancelCeremony(), () => undefined);
    };
  }, [autofill, round, clientId]);

  return { supported: offered, autofill, pending, signIn: () => void run() };
}
