import type { z } from 'zod';
import { OK_RESPONSE } from '@sso/contracts/common';
import { LIMITS } from '@sso/contracts/constants';
import { PASSKEY_MESSAGES } from '@sso/contracts/messages';
import { PASSKEY_SETTINGS_MESSAGES } from '@sso/contracts/screen-messages';
import type { passkeyRegisterRequestSchema, CeremonyOptionsResponse, Passkey } from '@sso/contracts/passkeys';
import { uniqueViolation } from '../../db/unique-violation.ts';
import { retryable } from '../../lib/app-error.ts';
import { newId } from '../../lib/secrets.ts';
import type { MemberCall } from '../oauth/member-post.ts';
import { logActivity } from '../activity/activity-repo.ts';
import { notMeLink } from '../account/not-me-link.ts';
import { issueToken } from '../verification/one-time-secret.ts';
import { keepChallenge, takeChallenge } from './ceremony.ts';
import { creationOptions, verifyCreation } from './creation.ts';
import { passkeyAddedMail } from './mails.ts';
import { ceremonyOptions, passkeyView, rpOf, type PasskeyDeps } from './passkey-deps.ts';
import { countMemberPasskeys, insertPasskey, memberPasskeys } from './passkey-repo.ts';
import { userHandleBytes } from './relying-party.ts';
import { securityEvent } from '../../lib/security-events.ts';

const notAccepted = () => retryable(PASSKEY_MESSAGES.notAccepted);

/** A new passkey not accepted: its security event (docs/security-events.md, passkey.refused), and the answer. */
const refused = (call: Pick<MemberCall<unknown>, 'user' | 'clientId'>) => {
  securityEvent({ event: 'passkey.refused', memberId: call.user.id, clientId: call.clientId, reason: 'registration' });
  return notAccepted();
};

/**
 * POST /api/auth/passkey/register/options (Bearer, fresh proof; decision 0024): the creation options
 * of a discoverable credential with user verification required, excluding the member's passkeys, and
 * a challenge kept for this session (token family).
 */
export async function registrationOptions(deps: PasskeyDeps, call: MemberCall<unknown>): Promise<CeremonyOptionsResponse> {
  const rp = rpOf(deps);
  const own = await memberPasskeys(deps.db, call.user.id);
  if (own.length >= LIMITS.passkeysPerMember) throw retryable(PASSKEY_SETTINGS_MESSAGES.tooMany);
  const options = await creationOptions(rp, { rpName: rp.name, userId: userHandleBytes(call.user.id), userName: call.user.email, userDisplayName: call.user.email, own });
  await keepChallenge(deps.db, { purpose: 'passkey_register', challenge: options.challenge, subject: call.token.familyId, now: deps.clock.now() });
  return ceremonyOptions(options);
}

/**
 * POST /api/auth/passkey/register (Bearer, fresh proof): the browser's registration answer over this
 * session's challenge, checked by @simplewebauthn/server (origin, relying party, user verification,
 * the attestation's format). The passkey is stored with its name, logged, and mailed to the member
 * with a link that removes it again (decision 0024).
 */
export async function registerPasskey(
  deps: PasskeyDeps,
  call: MemberCall<z.infer<typeof passkeyRegisterRequestSchema>>,
): Promise<{ result_code: number; result_message: string; passkey: Passkey }> {
  const now = deps.clock.now();
  const rp = rpOf(deps);
  const kept = await takeChallenge(deps.db, 'passkey_register', call.input.credential, now);
  if (!kept || kept.subject !== call.token.familyId) throw refused(call);
  const credential = await verifyCreation(rp, call.input.credential, kept.challenge);
  if (!credential) throw refused(call);
  const row = { id: newId(), user_id: call.user.id, ...credential, name: call.input.name, created_at: now, last_used_at: null };
  let revokeToken = '';
  try {
    await deps.db.transaction().execute(async (trx) => {
      if ((await countMemberPasskeys(trx, call.user.id)) >= LIMITS.passkeysPerMember) throw retryable(PASSKEY_SETTINGS_MESSAGES.tooMany);
      await insertPasskey(trx, row);
      await logActivity(trx, { userId: call.user.id, event: 'passkey_added', clientId: call.clientId, device: call.device, at: now });
      securityEvent({ event: 'passkey.added', memberId: call.user.id, clientId: call.clientId });
      revokeToken = await issueToken(trx, { purpose: 'passkey_revoke', subject: row.id, now });
    });
  } catch (err) {
    // The same credential twice, this member's or another's (the id is unique): one answer for both.
    if (uniqueViolation(err)) throw retryable(PASSKEY_MESSAGES.alreadyRegistered);
    throw err;
  }
  const revokeUrl = `${deps.issuer}/content/passkey/revoke?token=${encodeURIComponent(revokeToken)}`;
  await deps.notifier.send(passkeyAddedMail(call.user.email, { name: row.name, at: now, device: call.device, revokeUrl, notMe: await notMeLink(deps, call.user.id, { address: call.user.email }, now) }));
  return { ...OK_RESPONSE, passkey: passkeyView(row) };
}
