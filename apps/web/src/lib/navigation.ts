import { CARDHOLDERS_ONLY_PATH } from '@sso/contracts/constants';
import { CLIENT_MESSAGES } from '@sso/contracts/messages';
import { errorRouteFor } from './result.ts';
import { setEphemeralMessage } from './ephemeral-message.ts';

/** Lets non-React code (the API client) navigate with the router once the app has registered it. */
type Navigate = (to: string, opts?: { replace?: boolean }) => void;
let navigate: Navigate = (to) => globalThis.location.assign(`/content${to}`);

export function registerNavigator(fn: Navigate): void {
  navigate = fn;
}

export function go(to: string, opts?: { replace?: boolean }): void {
  navigate(to, opts);
}

/**
 * The error flow (SPEC.md section 4): route by result code, message passed as an ephemeral message,
 * with the support reference of the server's answer when it sent one (docs/operations.md).
 */
export function goToError(resultCode: number, message: string, reference?: string): void {
  setEphemeralMessage(message, reference);
  navigate(errorRouteFor(resultCode), { replace: true });
}

/** A cardholders-only service refused to a member without a card (300; SPEC.md section 6, decision 0015): the page that says so and the way on. */
export function goToCardholdersOnly(message: string): void {
  setEphemeralMessage(message);
  navigate(CARDHOLDERS_ONLY_PATH, { replace: true });
}

/** The failed-refresh case appends the re-login suggestion (C99-000500). */
export const reloginMessage = (message: string = CLIENT_MESSAGES['C99-000999']) => `${message} ${CLIENT_MESSAGES['C99-000500']}`;
