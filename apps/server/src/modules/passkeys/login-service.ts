import { generateAuthenticationOptions, type AuthenticationResponseJSON } from '@simplewebauthn/server';
import type { z } from 'zod';
import { OK_RESPONSE } from '@sso/contracts/common';
import { LIMITS } from '@sso/contracts/constants';
import { PASSKEY_MESSAGES, SERVER_MESSAGES } from '@sso/contracts/messages';
import type { CeremonyOptionsResponse, PasskeyLoginResponse, passkeyLoginRequestSchema } from '@sso/contracts/passkeys';
import { RESULT } from '@sso/contracts/result-codes';
import { hitRateLimit, rateLimitCount } from '../../db/rate-limit-repo.ts';
import { AppError, lockedError, suspendedError, validationError } from '../../lib/app-error.ts';
import { lookupDigest } from '../../lib/secrets.ts';
import { requireCardholder } from '../oauth/cardholders-only.ts';
import { addressKey, outstandingTerms } from '../account/credentials-service.ts';
import { issueLoginTicket } from '../account/login-ticket.ts';
import { findUserById, type UserRow } from '../account/user-repo.ts';
import type { ClientRegistry, OAuthClient } from '../clients/clients.ts';
import { checkAssertion } from './assertion.ts';
import { keepChallenge, takeChallenge } from './ceremony.ts';
import { ceremonyOptions, rpOf, type PasskeyDeps } from './passkey-deps.ts';
import { passkeyByCredentialId, type PasskeyRow } from './passkey-repo.ts';
import { userHandleOf } from './relying-party.ts';
import { loginRefused } from '../../lib/security-events.ts';
import type { DpopSettings } from '../oauth/dpop.ts';

/**
 * The passkey sign-in (decision 0024). The login page asks for a challenge for the client it signs
 * in to; the challenge is kept for this browser (a keyed digest of its HttpOnly passkey cookie) and
 * that client. The browser's assertion, with a discoverable credential and user verification, comes
 * back; when it is the member's, the answer is the login step's (`/api/auth/login`): the outstanding
 * terms and a ticket, and the SPA posts the same authorize form as after a password, so that every
 * hand-off (a partner's code, the additional terms, portal apps, the saved route) is the same one.
 */
export interface PasskeyLoginDeps extends PasskeyDeps {
  clients: ClientRegistry;
  /** What DPoP proofs are checked against (RFC 9449; oauth/dpop.ts). */
  dpop: DpopSettings;
  /** Failed sign-ins allowed from one network address in 15 minutes, shared with the password's (decision 0007; 0: no limit). */
  loginAddressFailures?: number;
}

const browserKey = (cookie: string) => lookupDigest(`passkey-browser:${cookie}`);
const clientBinding = (clientId: string) => lookupDigest(`passkey-login:${clientId}`);
/** Result 200, as a wrong password (SPEC.md section 8: the SPA shows the message): never says why. */
const notAccepted = () => new AppError(RESULT.CREDENTIALS, PASSKEY_MESSAGES.notAccepted);

function knownClient(clients: ClientRegistry, clientId: string): OAuthClient {
  const client = clients.get(clientId);
  if (!client) throw validationError([{ key: 'client_id', message: SERVER_MESSAGES.validation }]);
  return client;
}

/** POST /api/auth/passkey/login/options: a challenge for this browser and client, for any passkey of this site. */
export async function passkeyLoginOptions(deps: PasskeyLoginDeps, p: { clientId: string; browserCookie: string }): Promise<CeremonyOptionsResponse> {
  const client = knownClient(deps.clients, p.clientId);
  const options = await generateAuthenticationOptions({ rpID: rpOf(deps).id, userVerification: 'required', timeout: LIMITS.passkeyChallengeTtlMs });
  await keepChallenge(deps.db, {
    purpose: 'passkey_login',
    challenge: options.challenge,
    subject: browserKey(p.browserCookie),
    binding: clientBinding(client.client_id),
    now: deps.clock.now(),
  });
  return ceremonyOptions(options);
}

/**
 * The active member whose passkey signed this browser's challenge for this client, and the passkey;
 * 'suspended' when the signature is right but an operator suspended the member (migration 0022);
 * undefined for anything else, alike.
 */
async function assertedMember(
  deps: PasskeyLoginDeps,
  p: { clientId: string; browserCookie: string; answer: AuthenticationResponseJSON; now: number },
): Promise<{ user: UserRow; passkey: PasskeyRow } | 'suspended' | undefined> {
  const kept = await takeChallenge(deps.db, 'passkey_login', p.answer, p.now);
  if (!kept || kept.subject !== browserKey(p.browserCookie) || kept.binding !== clientBinding(p.clientId)) return undefined;
  const passkey = await passkeyByCredentialId(deps.db, p.answer.id);
  const found = passkey && (await findUserById(deps.db, passkey.user_id));
  const user = found && (found.status === 'active' || found.status === 'suspended') ? found : undefined;
  if (!passkey || !user) return undefined;
  // A discoverable credential names its member: it must be the one the credential was registered to.
  if (p.answer.response.userHandle !== userHandleOf(user.id)) return undefined;
  if (!(await checkAssertion({ db: deps.db, rp: rpOf(deps) }, { answer: p.answer, challenge: kept.challenge, passkey, now: p.now }))) return undefined;
  return user.status === 'suspended' ? 'suspended' : { user, passkey };
}

/**
 * POST /api/auth/passkey/login. An address past the failures the password login counts too (decision
 * 0007) is refused before any work; a refused assertion counts on it. Unlike a password, an assertion
 * cannot be guessed, so parallel failures need not be counted before they are checked: a success
 * writes nothing there. A refused assertion is result 200 with one message, whatever was wrong.
 */
export async function passkeyLogin(
  deps: PasskeyLoginDeps,
  input: z.infer<typeof passkeyLoginRequestSchema>,
  origin: { browserCookie: string | undefined; address: string },
): Promise<PasskeyLoginResponse> {
  const client = knownClient(deps.clients, input.client_id);
  const now = deps.clock.now();
  const limit = deps.loginAddressFailures ?? LIMITS.loginFailuresPerAddress;
  const bucket = addressKey(origin.address);
  if (limit > 0 && (await rateLimitCount(deps.db, bucket, now, LIMITS.loginLockMs)) >= limit) throw loginRefused(client.client_id, null, 'address_limited', lockedError(true));
  const answer = input.credential as unknown as AuthenticationResponseJSON;
  const asserted = origin.browserCookie ? await assertedMember(deps, { clientId: client.client_id, browserCookie: origin.browserCookie, answer, now }) : undefined;
  if (!asserted) {
    if (limit > 0) await hitRateLimit(deps.db, bucket, now, LIMITS.loginLockMs);
    throw loginRefused(client.client_id, null, 'passkey_refused', notAccepted());
  }
  // The member's own passkey, but the member is suspended: the login says whom to contact, as the password's does.
  if (asserted === 'suspended') throw loginRefused(client.client_id, null, 'suspended', suspendedError());
  const { user, passkey } = asserted;
  // Before the terms and the ticket, as at the password's login step (SPEC.md section 6).
  await requireCardholder(deps.db, user.id, client.client_id);
  // The ticket is bound to the passkey: redeemed only while it is still the member's, it carries its kind
  // of key to the session's ID tokens (`amr` hwk or swk, decision 0025).
  const login_ticket = await issueLoginTicket(deps.db, user, client.client_id, now, passkey.id);
  return { ...OK_RESPONSE, terms: await outstandingTerms(deps.db, user.id, client), login_ticket, id: user.email };
}
