import { generateAuthenticationOptions, type AuthenticationResponseJSON } from '@simplewebauthn/server';
import type { z } from 'zod';
import type { BaseResponse } from '@sso/contracts/common';
import { LIMITS } from '@sso/contracts/constants';
import { PASSKEY_MESSAGES } from '@sso/contracts/messages';
import type { CeremonyOptionsResponse, passkeyReauthRequestSchema } from '@sso/contracts/passkeys';
import { retryable, unauthorizedError } from '../../lib/app-error.ts';
import type { MemberCall } from '../account/member-post.ts';
import { logActivity } from '../activity/activity-repo.ts';
import { markProved } from '../oauth/token-repo.ts';
import { checkAssertion, transportsOf } from './assertion.ts';
import { keepChallenge, takeChallenge } from './ceremony.ts';
import { ceremonyOptions, OK, rpOf, type PasskeyDeps } from './passkey-deps.ts';
import { memberPasskeys, passkeyByCredentialId } from './passkey-repo.ts';

const notAccepted = () => retryable(PASSKEY_MESSAGES.notAccepted);

/**
 * POST /api/auth/reauth/passkey/options (Bearer): the step-up of decision 0012 by passkey (decision
 * 0024): a challenge for this session, for the member's own passkeys only.
 */
export async function passkeyReauthOptions(deps: PasskeyDeps, call: MemberCall<unknown>): Promise<CeremonyOptionsResponse> {
  const own = await memberPasskeys(deps.db, call.user.id);
  if (own.length === 0) throw retryable(PASSKEY_MESSAGES.none);
  const options = await generateAuthenticationOptions({
    rpID: rpOf(deps).id,
    userVerification: 'required',
    timeout: LIMITS.passkeyChallengeTtlMs,
    allowCredentials: own.map((p) => ({ id: p.credential_id, transports: transportsOf(p) })),
  });
  await keepChallenge(deps.db, { purpose: 'passkey_reauth', challenge: options.challenge, subject: call.token.familyId, now: deps.clock.now() });
  return ceremonyOptions(options);
}

/**
 * POST /api/auth/reauth/passkey (Bearer): an assertion of one of the member's passkeys over this
 * session's challenge stamps this session proved, as /api/auth/reauth does with the password, and
 * logs `passkey_reauth`. Another member's credential is answered as an unknown one.
 */
export async function passkeyReauth(deps: PasskeyDeps, call: MemberCall<z.infer<typeof passkeyReauthRequestSchema>>): Promise<BaseResponse> {
  const now = deps.clock.now();
  const answer = call.input.credential as unknown as AuthenticationResponseJSON;
  const kept = await takeChallenge(deps.db, 'passkey_reauth', call.input.credential, now);
  if (!kept || kept.subject !== call.token.familyId) throw notAccepted();
  const passkey = await passkeyByCredentialId(deps.db, answer.id);
  if (!passkey || passkey.user_id !== call.user.id) throw notAccepted();
  if (!(await checkAssertion({ db: deps.db, rp: rpOf(deps) }, { answer, challenge: kept.challenge, passkey, now }))) throw notAccepted();
  if (!(await markProved(deps.db, call.token.familyId, now))) throw unauthorizedError();
  await logActivity(deps.db, { userId: call.user.id, event: 'passkey_reauth', clientId: call.clientId, device: call.device, at: now });
  return OK;
}
