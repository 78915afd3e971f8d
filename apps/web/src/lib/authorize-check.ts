import { useEffect, useState } from 'react';
import { RESULT } from '@sso/contracts/result-codes';
import { apiPost } from './api-client.ts';
import { authorizeParams, getOAuthClient } from './records.ts';
import { ApiFailure } from './result.ts';

export type AuthorizeVerdict = 'checking' | 'ok' | 'refused';

/** What the server said of each request in this page's life: the form shows at once on a return. */
const verdicts = new Map<string, 'ok' | 'refused'>();

/**
 * Asks the server whether its authorize endpoint would take these parameters
 * (/api/auth/authorize/check, the endpoint's own checks). Refused only on its 901 answer: a network
 * failure or an outage lets the form show, and the authorize endpoint still refuses a wrong client
 * without a redirect (RFC 6749 section 4.1.2.1).
 */
export async function checkAuthorize(params: URLSearchParams): Promise<'ok' | 'refused'> {
  let verdict: 'ok' | 'refused' = 'ok';
  try {
    await apiPost('/api/auth/authorize/check', { json: Object.fromEntries(params) });
  } catch (e) {
    if (e instanceof ApiFailure && e.result.result_code === RESULT.VALIDATION) verdict = 'refused';
  }
  verdicts.set(params.toString(), verdict);
  return verdict;
}

/** The web's own saved client, made by this SPA (SPEC.md section 4): nothing to ask about. */
const isOwnClient = (key: string) => {
  const saved = getOAuthClient();
  return saved !== undefined && authorizeParams(saved).toString() === key;
};

/**
 * The login and card sign-up forms show only for parameters the authorize endpoint would take: a
 * partner's unknown client_id or unregistered redirect_uri is refused before the member types a
 * password for it (SPEC.md section 2: both pages carry the authorize parameters). 'checking' while
 * the server is asked.
 */
export function useAuthorizeCheck(params: URLSearchParams | undefined): AuthorizeVerdict {
  const key = params?.toString();
  const known = key === undefined || isOwnClient(key) ? 'ok' : verdicts.get(key);
  const [, setAnswered] = useState(0);
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
  return known ?? 'checking';
}
