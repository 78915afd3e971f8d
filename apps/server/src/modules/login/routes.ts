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
import { cardholdersOnlyError, refusesMember } from '../oauth/cardholders-only.ts';
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
    // The ticket and the terms, in the commit that takes the attempt's counts back (db/one-commit.ts).
    let answer: { refused: true } | { refused: false; login_ticket: string; terms: string[] } | undefined;
    const check = await checkCredentials(deps, input.id, input.password, { clientId: client.client_id, device, address: request.ip ?? '' }, async (db, user) => {
      // Before the terms and the ticket: a service the member may not use is said at once, on the login page (SPEC.md section 6).
      if (await refusesMember(db, user.id, client.client_id)) answer = { refused: true };
      else answer = { refused: false, login_ticket: await issueLoginTicket(db, user, client.client_id, deps.clock.now()), terms: await outstandingTerms(db, user.id, client) };
    });
    if (!check.ok) throw check.reason === 'locked' ? lockedError(check.byAddress) : check.reason === 'suspended' ? suspendedError() : credentialsError();
    if (!answer) throw new Error('the login step admitted a member without an answer');
    if (answer.refused) throw cardholdersOnlyError();
    return { ...ok, terms: answer.terms, login_ticket: answer.login_ticket };
  });
}
