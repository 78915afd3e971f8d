import type { FastifyReply, FastifyRequest } from 'fastify';
import type { SessionStart } from '../oauth/authorize-service.ts';
import { setSsoCookie, signInBrowserOf, type Browser } from './sso-cookie.ts';
import { liveSsoSession, signIn, type SsoDeps } from './sso-sessions.ts';

/** A login's post and the browser's SSO session it starts or renews (decision 0026). */
export interface SignInPost {
  browser: Browser;
  /** For the code's transaction (issueCodeRedirect). */
  session: SessionStart;
  /** Once the code is in: gives the browser the session's cookie, if one started. */
  setCookie(): void;
}

/**
 * The browser of a post that signs the member in (the authorize form after a password or a passkey,
 * the end of a card sign-up): its device cookie (set now if it has none, never on a post that is not the SPA's)
 * and its session as it holds it.
 */
export async function signInPost(deps: SsoDeps & { issuer: string }, request: FastifyRequest, reply: FastifyReply): Promise<SignInPost> {
  const secure = deps.issuer.startsWith('https:');
  const browser = signInBrowserOf(request, reply, deps.issuer);
  const session = signIn(deps, browser, await liveSsoSession(deps, browser));
  return {
    browser,
    session,
    setCookie: () => {
      const cookie = session.cookie();
      if (cookie !== undefined) setSsoCookie(reply, cookie, secure);
    },
  };
}
