import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { heldRandomCookie, randomCookie } from '../../http/cookies.ts';
import { route } from '../../http/route.ts';
import { describeDevice } from '../../lib/device.ts';
import { memberPost } from '../oauth/member-post.ts';
import { afterFreshProof } from '../fresh-proof/require-fresh-proof.ts';
import { passkeyLogin, passkeyLoginOptions, type PasskeyLoginDeps } from './login-service.ts';
import { deleteMemberPasskey, listPasskeys, renameMemberPasskey, requirePasskey, revokePasskeyByLink } from './manage-service.ts';
import { passkeyReauth, passkeyReauthOptions } from './reauth-service.ts';
import { registerPasskey, registrationOptions } from './registration-service.ts';
import { listResetReview, removeAfterReset } from './reset-review-service.ts';

/**
 * The browser a passkey sign-in's challenge is kept for (decision 0024): an HttpOnly, SameSite=Strict
 * cookie of 256 random bits, sent only to the sign-in's two endpoints, set when the browser has none.
 */
const PASSKEY_COOKIE = 'sso_passkey';
const COOKIE_PATH = '/api/auth/passkey/login';
const browserCookie = (deps: PasskeyLoginDeps, request: FastifyRequest, reply: FastifyReply): string =>
  randomCookie(request, reply, PASSKEY_COOKIE, { path: COOKIE_PATH, sameSite: 'strict', secure: deps.issuer.startsWith('https:') });

/** Passkeys (decision 0024): the sign-in (public), the settings and the step-up (Bearer, first-party clients only: account:write), and the mail's revoke link. */
export function registerPasskeyRoutes(app: FastifyInstance, deps: PasskeyLoginDeps): void {
  route(app, 'POST /api/auth/passkey/login/options', async (request, reply, input) => {
    const answer = await passkeyLoginOptions(deps, { clientId: input.client_id, browserCookie: browserCookie(deps, request, reply) });
    return reply.header('Cache-Control', 'no-store').send(answer);
  });
  route(app, 'POST /api/auth/passkey/login', async (request, reply, input) => {
    const answer = await passkeyLogin(deps, input, { browserCookie: heldRandomCookie(request, PASSKEY_COOKIE), address: request.ip ?? '' });
    return reply.header('Cache-Control', 'no-store').send(answer);
  });
  route(app, 'POST /api/auth/passkey/revoke', async (request, reply, input) =>
    reply.header('Cache-Control', 'no-store').send(await revokePasskeyByLink(deps, input, { device: describeDevice(request.headers['user-agent']) })),
  );
  // After a password reset: its finish page's or confirmation mail's secret (reset-review-service.ts).
  route(app, 'POST /api/auth/password/reset/passkeys', async (_request, reply, input) => reply.header('Cache-Control', 'no-store').send(await listResetReview(deps, input)));
  route(app, 'POST /api/auth/password/reset/passkeys/remove', async (request, reply, input) =>
    reply.header('Cache-Control', 'no-store').send(await removeAfterReset(deps, input, { device: describeDevice(request.headers['user-agent']) })),
  );

  memberPost(app, deps, 'POST /api/auth/passkeys', (call) => listPasskeys(deps, call));
  // Adding a way to sign in, and taking one away, need a fresh proof of the member (decision 0012).
  memberPost(app, deps, 'POST /api/auth/passkey/register/options', afterFreshProof(deps, (call) => registrationOptions(deps, call)));
  memberPost(app, deps, 'POST /api/auth/passkey/register', afterFreshProof(deps, (call) => registerPasskey(deps, call)));
  memberPost(app, deps, 'POST /api/auth/passkey/rename', (call) => renameMemberPasskey(deps, call));
  memberPost(app, deps, 'POST /api/auth/passkey/delete', afterFreshProof(deps, (call) => deleteMemberPasskey(deps, call)));
  memberPost(app, deps, 'POST /api/auth/passkey/require', afterFreshProof(deps, (call) => requirePasskey(deps, call)));
  memberPost(app, deps, 'POST /api/auth/reauth/passkey/options', (call) => passkeyReauthOptions(deps, call));
  memberPost(app, deps, 'POST /api/auth/reauth/passkey', (call) => passkeyReauth(deps, call));
}
