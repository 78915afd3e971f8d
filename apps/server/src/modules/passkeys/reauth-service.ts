import { generateAuthenticationOptions, type AuthenticationResponseJSON } from '@simplewebauthn/server';
import type { z } from 'zod';
import { OK_RESPONSE, type BaseResponse } from '@sso/contracts/common';
import { LIMITS } from '@sso/contracts/constants';
import { PASSKEY_MESSAGES } from '@sso/contracts/messages';
import { PASSKEY_SETTINGS_MESSAGES } from '@sso/contracts/screen-messages';
import type { CeremonyOptionsResponse, passkeyReauthOptionsRequestSchema, passkeyReauthRequestSchema, webauthnResponseSchema } from '@sso/contracts/passkeys';
import { retryable, unauthorizedError } from '../../lib/app-error.ts';
import type { MemberCall } from '../oauth/member-post.ts';
import type { UserRow } from '../account/user-repo.ts';
import type { BearerToken } from '../oauth/token-service.ts';
import { logActivity } from '../activity/activity-repo.ts';
import { markProved } from '../oauth/token-repo.ts';
import { checkAssertion, transportsOf } from './assertion.ts';
import { keepChallenge, takeChallenge } from './ceremony.ts';
import { ceremonyOptions, rpOf, type PasskeyDeps } from './passkey-deps.ts';
import { memberPasskeys, passkeyByCredentialId } from './passkey-repo.ts';
import { securityEvent } from '../../lib/security-events.ts';

const notAccepted = () => retryable(PASSKEY_MESSAGES.notAccepted);

/** What a step-up challenge is asked for: the session's fresh proof (no purpose), or one request (its purpose, kept as the challenge's binding). */
export type StepUpPurpose = NonNullable<z.infer<typeof passkeyReauthOptionsRequestSchema>['purpose']>;

/**
 * POST /api/auth/reauth/passkey/options (Bearer): the step-up of decision 0012 by passkey (decision
 * 0024): a challenge for this session, for the member's own passkeys only. With a purpose, the
 * challenge is kept for that one request (the password change, OWASP ASVS 5.0 V6.2.3): an answer
 * over it proves that request and does not make the session fresh, nor the other way round.
 */
export async function passkeyReauthOptions(deps: PasskeyDeps, call: MemberCall<z.infer<typeof passkeyReauthOptionsRequestSchema>>): Promise<CeremonyOptionsResponse> {
  const own = await memberPasskeys(deps.db, call.user.id);
  if (own.length === 0) throw retryable(PASSKEY_SETTINGS_MESSAGES.none);
  const options = await generateAuthenticationOptions({
    rpID: rpOf(deps).id,
    userVerification: 'required',
    timeout: LIMITS.passkeyChallengeTtlMs,
    allowCredentials: own.map((p) => ({ id: p.credential_id, transports: transportsOf(p) })),
  });
  const { purpose } = call.input;
  const kept = { purpose: 'passkey_reauth', challenge: options.challenge, subject: call.token.familyId, now: deps.clock.now() } as const;
  await keepChallenge(deps.db, purpose === undefined ? kept : { ...kept, binding: purpose });
  return ceremonyOptions(options);
}

/**
 * Checks a step-up assertion (throws "not accepted" otherwise): signed over a live challenge of this
 * session asked for `purpose` (used up here, whatever comes of it), by one of the member's own
 * passkeys. Another member's credential is answered as an unknown one.
 */
export async function checkStepUp(
  deps: PasskeyDeps,
  call: { user: Pick<UserRow, 'id'>; token: Pick<BearerToken, 'familyId'> },
  credential: z.infer<typeof webauthnResponseSchema>,
  purpose: StepUpPurpose | null,
): Promise<void> {
  const now = deps.clock.now();
  const answer = credential as unknown as AuthenticationResponseJSON;
  const kept = await takeChallenge(deps.db, 'passkey_reauth', credential, now);
  // Each refusal is a failed fresh proof (docs/security-events.md, fresh_proof.failed).
  const refused = () => {
    securityEvent({ event: 'fresh_proof.failed', memberId: call.user.id, method: 'passkey', reason: purpose ?? 'reauth' });
    return notAccepted();
  };
  if (!kept || kept.subject !== call.token.familyId || kept.binding !== purpose) throw refused();
  const passkey = await passkeyByCredentialId(deps.db, answer.id);
  if (!passkey || passkey.user_id !== call.user.id) throw refused();
  if (!(await checkAssertion({ db: deps.db, rp: rpOf(deps) }, { answer, challenge: kept.challenge, passkey, now }))) throw refused();
}

/**
 * POST /api/auth/reauth/passkey (Bearer): an assertion of one of the member's passkeys over this
 * session's step-up challenge stamps this session proved, as /api/auth/reauth does with the password,
 * and logs `passkey_reauth`.
 */
export async function passkeyReauth(deps: PasskeyDeps, call: MemberCall<z.infer<typeof passkeyReauthRequestSchema>>): Promise<BaseResponse> {
  await checkStepUp(deps, call, call.input.credential, null);
  const now = deps.clock.now();
  if (!(await markProved(deps.db, call.token.familyId, now))) throw unauthorizedError();
  await logActivity(deps.db, { userId: call.user.id, event: 'passkey_reauth', clientId: call.clientId, device: call.device, at: now });
  return OK_RESPONSE;
}
