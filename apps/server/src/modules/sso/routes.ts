import type { FastifyInstance } from 'fastify';
import { OK_RESPONSE as ok } from '@sso/contracts/common';
import { authorizeFormSchema, authorizeSessionFormSchema, logoutRequestSchema, type AuthorizeCheckResponse } from '@sso/contracts/auth';
import { SERVER_MESSAGES } from '@sso/contracts/messages';
import { validationError } from '../../lib/app-error.ts';
import { readInHandler, route } from '../../http/route.ts';
import { sendBadRequestPage } from '../../http/bad-request-page.ts';
import { postedFromOwnOrigin } from '../../http/own-origin-post.ts';
import { memberPost } from '../oauth/member-post.ts';
import { authorize, authorizeRequestProblem, resolveEnabledClient, type AuthorizeDeps } from '../oauth/authorize-service.ts';
import { authorizeFromSession, authorizeSessionForm, queryStringOf, sessionCheck } from './authorize-from-session.ts';
import { signInPost } from './sign-in-post.ts';
import { logoutBrowser } from './logout.ts';
import { endMemberSession, listSessions } from './sessions-service.ts';
import { browserOf, clearSsoCookie, renewSsoCookie } from './sso-cookie.ts';

/**
 * The SSO session's endpoints (docs/decisions/0026-sso-session.md): the authorization endpoint
 * (SPEC.md section 7; RFC 6749 section 3.1), whose GET completes a request from the browser's session
 * and whose POST signs the member in or confirms the session, and the SPA's check before it; the
 * browser's logout; and the member's list of signed-in browsers and services (Bearer,
 * `account:write`: seeing and ending where one is signed in is the member's own account's business,
 * never a partner's; decision 0010).
 */
export function registerSsoRoutes(app: FastifyInstance, deps: AuthorizeDeps): void {
  const secure = deps.issuer.startsWith('https:');

  // A HEAD is no authorization request: it would issue a code nobody asked for.
  route(app, 'GET /api/auth/authorize', async (request, reply) => {
    const query = (request.query ?? {}) as Record<string, unknown>;
    const target = await resolveEnabledClient(deps, query);
    if (!target) return sendBadRequestPage(reply);
    const browser = browserOf(request);
    const location = await authorizeFromSession(deps, target, queryStringOf(request.url), browser, () => renewSsoCookie(reply, browser, secure));
    return reply.code(303).header('Cache-Control', 'no-store').redirect(location, 303);
  }, { exposeHeadRoute: false });

  route(app, 'POST /api/auth/authorize', async (request, reply) => {
    const query = (request.query ?? {}) as Record<string, unknown>;
    const target = await resolveEnabledClient(deps, query);
    if (!target) return sendBadRequestPage(reply);
    const done = (location: string) => reply.code(303).header('Cache-Control', 'no-store').redirect(location, 303);
    // The browser's SSO session completes the request: the SPA's check said so, nothing secret is posted (decision 0026).
    // Only a post that names continue_session can be that form (its schema requires it): a login form's
    // post is not read twice, and never pays for the session form's failed parse.
    const body: unknown = request.body ?? {};
    const bySession = typeof body === 'object' && body !== null && 'continue_session' in body ? authorizeSessionFormSchema.safeParse(body) : undefined;
    if (bySession?.success) {
      const browser = browserOf(request);
      return done(await authorizeSessionForm(deps, target, queryStringOf(request.url), bySession.data, browser, () => renewSsoCookie(reply, browser, secure)));
    }
    const form = authorizeFormSchema.safeParse(body);
    const post = await signInPost(deps, request, reply);
    const origin = { device: post.browser.device, address: request.ip ?? '', deviceCookie: post.browser.deviceCookie ?? null, session: post.session };
    const location = await authorize(deps, target, form.success ? form.data : undefined, origin);
    post.setCookie();
    return done(location);
  }, { body: readInHandler });

  // Asked by the SPA before it shows a login or card sign-up form for a partner's request, before the
  // member types their password: an unknown client or unregistered redirect URI is 901, for the SPA to
  // tell the member, never redirected to; any other mistake of a known client is the authorize
  // endpoint's own error redirect, for the SPA to follow (RFC 6749 section 4.1.2.1; decision 0019).
  // Public and read-only, like the 400 page above.
  route(app, 'POST /api/auth/authorize/check', async (request, reply, asked) => {
    const checked = await authorizeRequestProblem(deps, asked);
    if ('param' in checked) throw validationError([{ key: checked.param, message: SERVER_MESSAGES.validation }]);
    const answer: AuthorizeCheckResponse =
      'redirectTo' in checked ? { ...ok, redirect_to: checked.redirectTo } : { ...ok, ...(await sessionCheck(deps, checked.query, browserOf(request))) };
    return reply.header('Cache-Control', 'no-store').send(answer);
  });

  // The SPA's logout (SPEC.md section 2, "Logout"): this browser's session ends, with its tokens. Another
  // site's post is no logout of the member's (it carries no SameSite=Lax cookie anyway) and is given
  // nothing, nor is any post not proved to come from the SPA's own origin (http/own-origin-post.ts).
  // Read leniently, and only for a post from the own origin: route() leaves the body to the handler.
  route(app, 'POST /api/auth/logout', async (request, reply) => {
    if (postedFromOwnOrigin(request, deps.issuer)) {
      const asked = logoutRequestSchema.safeParse(request.body ?? {});
      const client = asked.success && asked.data.client_id ? deps.clients.get(asked.data.client_id) : undefined;
      await logoutBrowser(deps, browserOf(request), client?.client_id ?? null);
      clearSsoCookie(reply, secure);
    }
    return reply.header('Cache-Control', 'no-store').send(ok);
  }, { body: readInHandler });

  memberPost(app, deps, 'POST /api/user/sessions', (call) => listSessions(deps, call));
  memberPost(app, deps, 'POST /api/user/sessions/end', (call) => endMemberSession(deps, call));
}
