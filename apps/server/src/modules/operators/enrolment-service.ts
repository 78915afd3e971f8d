import type { z } from 'zod';
import { OK_RESPONSE, type BaseResponse } from '@sso/contracts/common';
import { OPERATOR_MESSAGES, type OperatorRole, type OperatorView, type operatorEnrolRequestSchema } from '@sso/contracts/operators';
import type { CeremonyOptionsResponse } from '@sso/contracts/passkeys';
import { PASSKEY_MESSAGES } from '@sso/contracts/messages';
import { uniqueViolation } from '../../db/unique-violation.ts';
import { hitRateLimit, rateLimitCount } from '../../db/rate-limit-repo.ts';
import { addressDigest } from '../../lib/address-bucket.ts';
import { retryable } from '../../lib/app-error.ts';
import { newId, randomToken, sha256 } from '../../lib/secrets.ts';
import { keepChallenge, takeChallenge } from '../passkeys/ceremony.ts';
import { creationOptions, verifyCreation } from '../passkeys/creation.ts';
import { ceremonyOptions } from '../passkeys/passkey-deps.ts';
import { relyingPartyOf } from '../passkeys/relying-party.ts';
import { OPERATOR_LIMITS } from './limits.ts';
import { operatorHandleBytes, operatorView, type OperatorDeps } from './operator-deps.ts';
import {
  insertOperator,
  insertOperatorPasskey,
  liveEnrolment,
  operatorByEmail,
  operatorById,
  operatorPasskeys,
  replaceEnrolment,
  setOperatorRoleAndStatus,
  useUpEnrolment,
} from './operator-repo.ts';

/** An enrolment link that is unknown, expired or used: one answer for all (902). */
const enrolmentInvalid = () => retryable(OPERATOR_MESSAGES.enrolmentInvalid);

/** The single-use enrolment link of an operator: the console's page, the token in the fragment (never sent to a server's log). */
export interface EnrolmentLink {
  url: string;
  expiresAt: number;
}

/**
 * Issues an enrolment link for the operator (decision 0032): a 256-bit token, kept as its SHA-256,
 * live for OPERATOR_LIMITS.enrolmentLinkMs and used up by the enrolment; the operator's older live
 * link dies with it.
 */
async function issueEnrolment(deps: OperatorDeps, operatorId: string, now: number): Promise<EnrolmentLink> {
  const token = randomToken();
  const expiresAt = now + OPERATOR_LIMITS.enrolmentLinkMs;
  await replaceEnrolment(deps.db, { id: newId(), token_hash: sha256(token), operator_id: operatorId, created_at: now, expires_at: expiresAt });
  return { url: `${deps.issuer}/admin/enrol#token=${token}`, expiresAt };
}

/**
 * `npm run admin -- bootstrap` (docs/operations.md, "Operators"): makes the e-mail's operator an
 * active administrator, a new one or an existing one re-enabled, and answers a single-use enrolment
 * link. The way in for the first operator, and back in when the last administrator lost their passkeys.
 */
export async function bootstrapAdmin(deps: OperatorDeps, p: { email: string; name: string }): Promise<{ operator: OperatorView; created: boolean; link: EnrolmentLink }> {
  const now = deps.clock.now();
  const email = p.email.trim().toLowerCase();
  let created = false;
  let row = await operatorByEmail(deps.db, email);
  if (row) {
    await setOperatorRoleAndStatus(deps.db, row.id, 'admin', 'active');
  } else {
    const fresh = { id: newId(), email, display_name: p.name.trim(), role: 'admin', status: 'active', created_at: now, created_by: 'bootstrap' };
    await insertOperator(deps.db, fresh);
    created = true;
  }
  row = (await operatorByEmail(deps.db, email))!;
  return { operator: operatorView(row), created, link: await issueEnrolment(deps, row.id, now) };
}

/** POST /api/admin/operators/invite (admin, fresh proof): a new operator with a role, and their enrolment link. */
export async function inviteOperator(
  deps: OperatorDeps,
  p: { email: string; displayName: string; role: OperatorRole; invitedBy: string },
): Promise<{ operator: OperatorView; link: EnrolmentLink }> {
  const now = deps.clock.now();
  const row = { id: newId(), email: p.email, display_name: p.displayName, role: p.role, status: 'active', created_at: now, created_by: p.invitedBy };
  try {
    await insertOperator(deps.db, row);
  } catch (err) {
    if (uniqueViolation(err)) throw retryable(OPERATOR_MESSAGES.alreadyOperator);
    throw err;
  }
  return { operator: operatorView(row), link: await issueEnrolment(deps, row.id, now) };
}

/**
 * The live link's row and its active operator; undefined for anything else. A link that is not live
 * counts against the caller's address: past `enrolmentGuessesPerAddress` in 15 minutes every link is
 * refused from there, alike (a link's 256 bits are not guessed; the bound keeps anyone from trying).
 */
async function linkOperator(deps: OperatorDeps, token: string, now: number, address: string | undefined) {
  const bucket = address === undefined ? undefined : `operator-enrol:${addressDigest(address)}`;
  if (bucket && (await rateLimitCount(deps.db, bucket, now, OPERATOR_LIMITS.signInFailureWindowMs)) >= OPERATOR_LIMITS.enrolmentGuessesPerAddress) return undefined;
  const link = await liveEnrolment(deps.db, sha256(token), now);
  const operator = link && (await operatorById(deps.db, link.operator_id));
  if (link && operator?.status === 'active') return { link, operator };
  if (bucket) await hitRateLimit(deps.db, bucket, now, OPERATOR_LIMITS.signInFailureWindowMs);
  return undefined;
}

/**
 * POST /api/admin/enrol/options (public, the link's token): the creation options of a discoverable
 * credential with user verification, excluding the operator's passkeys; the challenge is kept for
 * this link. The link is not used up here: the enrolment's answer uses it.
 */
export async function enrolmentOptions(deps: OperatorDeps, token: string, address?: string): Promise<CeremonyOptionsResponse> {
  const now = deps.clock.now();
  const found = await linkOperator(deps, token, now, address);
  if (!found) throw enrolmentInvalid();
  const rp = relyingPartyOf(deps.issuer);
  const own = await operatorPasskeys(deps.db, found.operator.id);
  const options = await creationOptions(rp, {
    rpName: `${rp.name} 管理コンソール`,
    userId: operatorHandleBytes(found.operator.id),
    userName: found.operator.email,
    userDisplayName: found.operator.display_name,
    own,
  });
  await keepChallenge(deps.db, { purpose: 'operator_enrol', challenge: options.challenge, subject: found.link.id, now });
  return ceremonyOptions(options);
}

/**
 * POST /api/admin/enrol (public): the browser's registration answer over this link's challenge,
 * checked by @simplewebauthn/server (origin, relying party, user verification). The link is used up
 * by one conditional update in the transaction that stores the passkey: a link works once.
 */
export async function enrol(deps: OperatorDeps, input: z.infer<typeof operatorEnrolRequestSchema>, address?: string): Promise<{ response: BaseResponse; operatorId: string }> {
  const now = deps.clock.now();
  const found = await linkOperator(deps, input.token, now, address);
  if (!found) throw enrolmentInvalid();
  const kept = await takeChallenge(deps.db, 'operator_enrol', input.credential, now);
  if (!kept || kept.subject !== found.link.id) throw retryable(OPERATOR_MESSAGES.notAccepted);
  const rp = relyingPartyOf(deps.issuer);
  const credential = await verifyCreation(rp, input.credential, kept.challenge);
  if (!credential) throw retryable(OPERATOR_MESSAGES.notAccepted);
  try {
    await deps.db.transaction().execute(async (trx) => {
      if (!(await useUpEnrolment(trx, found.link.id, now))) throw enrolmentInvalid();
      await insertOperatorPasskey(trx, { id: newId(), operator_id: found.operator.id, ...credential, name: input.name, created_at: now, last_used_at: null });
    });
  } catch (err) {
    if (uniqueViolation(err)) throw retryable(PASSKEY_MESSAGES.alreadyRegistered);
    throw err;
  }
  return { response: OK_RESPONSE, operatorId: found.operator.id };
}
