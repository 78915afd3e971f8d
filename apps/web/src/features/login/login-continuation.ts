import { LOGIN_AUTHORIZE_PATH, submitAuthorizeForm } from '../../lib/hand-off.ts';
import { saveSession } from '../../lib/records.ts';
import { authorizeFields, sessionFields, setLoginContext } from './login-context.ts';

/**
 * What the login step answered, by password (/api/auth/login) or by passkey (/api/auth/passkey/login,
 * decision 0024): the login id and password the authorize form posts (the password empty after a
 * passkey: the ticket stands for it), the step's login ticket and the outstanding terms.
 */
export interface LoginStep {
  id: string;
  password: string;
  ticket: string | undefined;
  terms: string[];
}

/** The browser's SSO session completes the request, after the outstanding terms (decision 0026) and the app the member confirmed (decision 0027). */
export interface SessionStep {
  session: true;
  terms: string[];
  confirmed?: boolean;
}

/**
 * After the login step, whichever proved the member, or the browser's SSO session (SPEC.md section 4, "Login"): the session records
 * the client the member came from; with no outstanding terms the hidden authorize form posts the
 * login at once (SPEC.md section 4, "Authorize hand-off", a portal app's fallback included), else the
 * login is held in memory for the additional terms and `toTerms` goes there. The page is left either way.
 */
export function continueLogin(step: LoginStep | SessionStep, authorize: URLSearchParams, toTerms: () => void): 'leaving' {
  saveSession({ comesFrom: authorize.get('client_id') ?? '' });
  const fields = 'session' in step ? sessionFields(step.confirmed === true) : authorizeFields(step.id, step.password, step.ticket);
  if (step.terms.length === 0) {
    submitAuthorizeForm(LOGIN_AUTHORIZE_PATH, authorize, fields);
    return 'leaving';
  }
  // The login stays in memory only, never in storage or history state.
  setLoginContext({ fields, terms: step.terms, authorize });
  toTerms();
  return 'leaving';
}
