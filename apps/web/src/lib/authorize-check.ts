import { useEffect, useState } from 'react';
import type { AuthorizeCheckResponse } from '@sso/contracts/auth';
import { RESULT } from '@sso/contracts/result-codes';
import { apiPost } from './api-client.ts';
import { goToError } from './navigation.ts';
import { authorizeParams, getOAuthClient } from './records.ts';
import { ApiFailure } from './result.ts';

/**
 * What the member confirms before the session answers an app whose redirect URI cannot be tied to it
 * (decision 0027): the app's name, the session's account, and the app's `access_denied` redirect.
 */
export type SessionConfirm = NonNullable<AuthorizeCheckResponse['confirm']>;

/** The session completes the request after the terms it lists (decision 0026), and after the member's confirmation when `confirm` (decision 0027). */
export interface SessionAnswer {
  session: string[];
  confirm?: SessionConfirm | undefined;
}

/**
 * 'leaving': the partner's own error redirect is being followed. A SessionAnswer: the browser's SSO
 * session completes the request without the password.
 */
export type AuthorizeVerdict = 'checking' | 'ok' | 'refused' | 'leaving' | SessionAnswer;

/** The server's answer: the form, the page saying the link is not valid, the partner's error redirect, or the session. */
type Answer = 'ok' | 'refused' | { redirectTo: string } | SessionAnswer;

/** What the server said of each request in this page's life: a return is answered at once. */
const verdicts = new Map<string, Answer>();

/**
 * Asks the server whether its authorize endpoint would take these parameters
 * (/api/auth/authorize/check, the endpoint's own checks; decision 0019). Refused on its 901 answer
 * (an unknown client_id or unregistered redirect_uri, never redirected to: RFC 6749 section
 * 4.1.2.1); a known client's other mistake comes with the endpoint's own error redirect to the
 * client. Out of service (result 501) goes to /503 (SPEC.md section 8), as every other call's
 * answer does; a network failure or any other failure lets the form show, and the authorize
 * endpoint still refuses or redirects as it would have. A request the browser's SSO session completes is answered
 * `session` with the terms to accept first (decision 0026), and the app to confirm (decision 0027).
 */
export async function checkAuthorize(params: URLSearchParams): Promise<Answer> {
  let answer: Answer = 'ok';
  try {
    const res = await apiPost('/api/auth/authorize/check', 'authorizeCheckResponseSchema', { json: Object.fromEntries(params) });
    if (typeof res.redirect_to === 'string' && res.redirect_to) answer = { redirectTo: res.redirect_to };
    else if (res.session === true) answer = { session: Array.isArray(res.terms) ? res.terms : [], confirm: res.confirm };
  } catch (e) {
    if (e instanceof ApiFailure && e.result.result_code === RESULT.VALIDATION) answer = 'refused';
    if (e instanceof ApiFailure && e.result.result_code === RESULT.OUT_OF_SERVICE) goToError(RESULT.OUT_OF_SERVICE, e.result.result_message);
  }
  verdicts.set(params.toString(), answer);
  return answer;
}

/** The web's own saved client, made by this SPA (SPEC.md section 4): nothing to ask about. */
const isOwnClient = (key: string) => {
  const saved = getOAuthClient();
  return saved !== undefined && authorizeParams(saved).toString() === key;
};

/**
 * The login and card sign-up forms show only for parameters the authorize endpoint would take: a
 * partner's unknown client_id or unregistered redirect_uri is refused, and its other mistakes are
 * sent back to it as the authorize endpoint would (RFC 6749 section 4.1.2.1), before the member
 * types a password for it (SPEC.md section 2: both pages carry the authorize parameters).
 * 'checking' while the server is asked, 'leaving' while the partner's error redirect loads.
 */
export function useAuthorizeCheck(params: URLSearchParams | undefined): AuthorizeVerdict {
  const key = params?.toString();
  const known = key === undefined || isOwnClient(key) ? 'ok' : verdicts.get(key);
  const [, setAnswered] = useState(0);
  const redirectTo = typeof known === 'object' && 'redirectTo' in known ? known.redirectTo : undefined;
  useEffect(() => {
    // A document navigation: the partner's redirect URI is another site.
    if (redirectTo !== undefined) globalThis.location.assign(redirectTo);
  }, [redirectTo]);
  useEffect(() => {
    if (known || key === undefined) return;
    let live = true;
    void checkAuthorize(new URLSearchParams(key)).then(() => {
      if (live) setAnswered((n) => n + 1);
    });
    return () => {
      live = false;
    };
  }, [key, known]);
  if (known === undefined) return 'checking';
  return typeof known === 'object' && 'redirectTo' in known ? 'leaving' : known;
}
