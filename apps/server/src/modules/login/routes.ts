import type { FastifyInstance } from 'fastify';
import { OK_RESPONSE as ok } from '@sso/contracts/common';
import type { LoginResponse } from '@sso/contracts/auth';
import { SERVER_MESSAGES } from '@sso/contracts/messages';
import { credentialsError, lockedError, recaptchaError, suspendedError, validationError } from '../../lib/app-error.ts';
import { route } from '../../http/route.ts';
import { describeDevice } from '../../lib/device.ts';
import type { RecaptchaVerifier } from '../../ports/recaptcha.ts';
import type { ClientRegistry } from '../clients/clients.ts';
import { checkCredentials, outstandingTerms, type CredentialDeps } from '../account/credentials-service.ts';
import { issueLoginTicket } from '../account/login-ticket.ts';
import { requireCardholder } from '../oauth/cardholders-only.ts';
import { recaptchaRefused } from '../../lib/security-events.ts';

export interface LoginDeps extends CredentialDeps {
  clients: ClientRegistry;
  recaptcha: RecaptchaVerifier;
}

/** The login check before the authorize request (SPEC.md sections 2 and 7, `/api/auth/login`; decision 0011). */
export function registerLoginRoutes(app: FastifyInstance, deps: LoginDeps): void {
  route(app, 'POST /api/auth/login', async (request, _reply, input): Promise<LoginResponse> => {
    const client = deps.clients.get(input.client_id);
    if (!client) throw validationError([{ key: 'client_id', message: SERVER_MESSAGES.validation }]);
    if (!(await deps.recaptcha.verify(input.recaptcha_token, 'Authorize', request.ip))) throw recaptchaRefused('login', client.client_id, recaptchaError());
    const device = describeDevice(request.headers['user-agent']);
    const check = await checkCredentials(deps, input.id, input.password, { clientId: client.client_id, device, address: request.ip ?? '' });
    if (!check.ok) throw check.reason === 'locked' ? lockedError(check.byAddress) : check.reason === 'suspended' ? suspendedError() : credentialsError();
    // Before the terms and the ticket: a service the member may not use is said at once, on the login page (SPEC.md section 6).
    await requireCardholder(deps.db, check.user.id, client.client_id);
    const login_ticket = await issueLoginTicket(deps.db, check.user, client.client_id, deps.clock.now());
    return { ...ok, terms: await outstandingTerms(deps.db, check.user.id, client), login_ticket };
  });
}
