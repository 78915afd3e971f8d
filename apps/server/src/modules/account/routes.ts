import type { FastifyInstance } from 'fastify';
import { OK_RESPONSE as ok } from '@sso/contracts/common';
import type { LoginResponse } from '@sso/contracts/auth';
import { SERVER_MESSAGES } from '@sso/contracts/messages';
import type { UserAttributeResponse, UserResponse } from '@sso/contracts/user';
import { credentialsError, lockedError, recaptchaError, validationError } from '../../lib/app-error.ts';
import { route } from '../../http/route.ts';
import { describeDevice } from '../../lib/device.ts';
import { maskTel } from '../../lib/mask.ts';
import { findPoints } from '../../ports/point-ledger-repo.ts';
import type { RecaptchaVerifier } from '../../ports/recaptcha.ts';
import { hasCards } from '../cards/card-repo.ts';
import type { ClientRegistry } from '../clients/clients.ts';
import { usedClientIds } from '../oauth/token-repo.ts';
import { profileOf } from '../profile/profile-service.ts';
import { requireCardholder } from './cardholders-only.ts';
import { checkCredentials, outstandingTerms, type CredentialDeps } from './credentials-service.ts';
import { currentUser } from './current-user.ts';
import { issueLoginTicket } from './login-ticket.ts';

export interface AccountDeps extends CredentialDeps {
  clients: ClientRegistry;
  recaptcha: RecaptchaVerifier;
}

/** Login check, user and attribute (SPEC.md sections 3 and 7). */
export function registerAccountRoutes(app: FastifyInstance, deps: AccountDeps): void {
  route(app, 'POST /api/auth/login', async (request, _reply, input): Promise<LoginResponse> => {
    const client = deps.clients.get(input.client_id);
    if (!client) throw validationError([{ key: 'client_id', message: SERVER_MESSAGES.validation }]);
    if (!(await deps.recaptcha.verify(input.recaptcha_token, 'Authorize', request.ip))) throw recaptchaError();
    const device = describeDevice(request.headers['user-agent']);
    const check = await checkCredentials(deps, input.id, input.password, { clientId: client.client_id, device, address: request.ip ?? '' });
    if (!check.ok) throw check.reason === 'locked' ? lockedError() : credentialsError();
    // Before the terms and the ticket: a service the member may not use is said at once, on the login page (SPEC.md section 6).
    await requireCardholder(deps.db, check.user.id, client.client_id);
    const login_ticket = await issueLoginTicket(deps.db, check.user, client.client_id, deps.clock.now());
    return { ...ok, terms: await outstandingTerms(deps.db, check.user.id, client), login_ticket };
  });

  // Bearer routes written by hand: route() declares the entry's scope in the route's config, as memberPost does (oauth/bearer.ts).
  route(app, 'POST /api/user', async (request, reply): Promise<UserResponse> => {
    const user = await currentUser(deps, request);
    // Open members' answers carry their profile (SPEC.md section 3, "User: ... optional user_profile"): personal data, never cached.
    const profile = profileOf(user);
    reply.header('Cache-Control', 'no-store');
    const login_tel = user.tel === null ? null : maskTel(user.tel);
    return { ...ok, email: user.email, user_id: user.id, ...(profile ? { user_profile: profile } : {}), login_tel };
  });

  route(app, 'POST /api/user/attribute', async (request): Promise<UserAttributeResponse> => {
    const user = await currentUser(deps, request);
    const [cards, openPoints, used] = await Promise.all([
      hasCards(deps.db, user.id),
      findPoints(deps.db, user.id, 'open').then((points) => points ?? 0),
      usedClientIds(deps.db, user.id),
    ]);
    const serviceLinks = used
      .map((id) => deps.clients.get(id))
      .filter((c) => c?.service_link)
      .map((c) => ({ name: c!.name, client_id: c!.client_id }));
    return {
      ...ok,
      // Two facts, both true for an open member who has added a card (docs/decisions/0016).
      is_user_open: user.member_type === 'open',
      is_user_saison_card: cards,
      is_user_saison_aqf: openPoints > 0 || cards,
      service_links: serviceLinks,
    };
  });
}
