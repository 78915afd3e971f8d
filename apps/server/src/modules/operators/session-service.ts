import { generateAuthenticationOptions, type AuthenticationResponseJSON } from '@simplewebauthn/server';
import type { z } from 'zod';
import { OK_RESPONSE, type BaseResponse } from '@sso/contracts/common';
import { LIMITS } from '@sso/contracts/constants';
import { OPERATOR_MESSAGES, type OperatorSignInResponse } from '@sso/contracts/operators';
import type { CeremonyOptionsResponse, webauthnResponseSchema } from '@sso/contracts/passkeys';
import { hitRateLimit, rateLimitCount } from '../../db/rate-limit-repo.ts';
import { addressDigest } from '../../lib/address-bucket.ts';
import { freshProofError, lockedError, retryable, unauthorizedError } from '../../lib/app-error.ts';
import { newId, randomToken, sha256 } from '../../lib/secrets.ts';
import { transportsOf, verifyAssertion } from '../passkeys/assertion.ts';
import { keepChallenge, takeChallenge } from '../passkeys/ceremony.ts';
import { ceremonyOptions } from '../passkeys/passkey-deps.ts';
import { relyingPartyOf } from '../passkeys/relying-party.ts';
import { OPERATOR_LIMITS, OPERATOR_TOKEN_PREFIX } from './limits.ts';
import { operatorHandleOf, operatorView, type OperatorDeps } from './operator-deps.ts';
import {
  endOperatorSession,
  insertOperatorSession,
  markSessionProved,
  operatorById,
  operatorPasskeyByCredentialId,
  operatorPasskeys,
  recordOperatorPasskeyUse,
  type OperatorPasskeyRow,
  type OperatorRow,
  type useLiveSession,
} from './operator-repo.ts';

/**
 * A live operator session and its operator, as the guard found it (operator-post.ts): `id`, `email`,
 * `role`, … are the operator's; `session_id`, `session_created_at`, `expires_at`, `proved_at` the session's.
 */
export type OperatorSession = NonNullable<Awaited<ReturnType<typeof useLiveSession>>>;

/** A refused assertion: 902 with one message, whatever was wrong. */
const notAccepted = () => retryable(OPERATOR_MESSAGES.notAccepted);
/** The sign-in's challenges are kept for no one in particular: the credential names its operator. */
const SIGN_IN_SUBJECT = 'operator-sign-in';
const addressKey = (address: string) => `operator-sign-in:${addressDigest(address)}`;

/** Checks an assertion by one of the operator's passkeys and records its use (the counter, as for a member's: passkeys/assertion.ts). */
async function operatorSigned(deps: OperatorDeps, answer: AuthenticationResponseJSON, challenge: string, passkey: OperatorPasskeyRow, now: number): Promise<boolean> {
  const use = await verifyAssertion(relyingPartyOf(deps.issuer), { answer, challenge, credential: passkey });
  return use !== undefined && recordOperatorPasskeyUse(deps.db, { id: passkey.id, ...use, now });
}

/** POST /api/admin/login/options (public): a challenge for any operator passkey of this site (a discoverable credential). */
export async function signInOptions(deps: OperatorDeps): Promise<CeremonyOptionsResponse> {
  const options = await generateAuthenticationOptions({ rpID: relyingPartyOf(deps.issuer).id, userVerification: 'required', timeout: LIMITS.passkeyChallengeTtlMs });
  await keepChallenge(deps.db, { purpose: 'operator_sign_in', challenge: options.challenge, subject: SIGN_IN_SUBJECT, now: deps.clock.now() });
  return ceremonyOptions(options);
}

/**
 * POST /api/admin/login (public): an assertion of an active operator's passkey over a live sign-in
 * challenge answers a new operator token: 256 random bits after OPERATOR_TOKEN_PREFIX, kept as its
 * SHA-256. The sign-in is the session's first passkey proof. An address past
 * OPERATOR_LIMITS.signInFailuresPerAddress refused sign-ins is refused before any work (203).
 */
export async function signIn(
  deps: OperatorDeps,
  credential: z.infer<typeof webauthnResponseSchema>,
  address: string,
): Promise<{ response: OperatorSignInResponse; operator: OperatorRow }> {
  const now = deps.clock.now();
  const bucket = addressKey(address);
  if ((await rateLimitCount(deps.db, bucket, now, OPERATOR_LIMITS.signInFailureWindowMs)) >= OPERATOR_LIMITS.signInFailuresPerAddress) throw lockedError();
  const answer = credential as unknown as AuthenticationResponseJSON;
  const operator = await assertedOperator(deps, answer, now);
  if (!operator) {
    await hitRateLimit(deps.db, bucket, now, OPERATOR_LIMITS.signInFailureWindowMs);
    throw notAccepted();
  }
  const token = `${OPERATOR_TOKEN_PREFIX}${randomToken()}`;
  await insertOperatorSession(deps.db, {
    id: newId(),
    token_hash: sha256(token),
    operator_id: operator.id,
    created_at: now,
    last_used_at: now,
    expires_at: now + OPERATOR_LIMITS.sessionMaxMs,
    proved_at: now,
    ended_at: null,
  });
  return {
    response: { ...OK_RESPONSE, access_token: token, token_type: 'Bearer', expires_in: OPERATOR_LIMITS.sessionIdleMs / 1000, operator: operatorView(operator) },
    operator,
  };
}

/** The active operator whose passkey signed a live sign-in challenge; undefined for anything else, alike. */
async function assertedOperator(deps: OperatorDeps, answer: AuthenticationResponseJSON, now: number): Promise<OperatorRow | undefined> {
  const kept = await takeChallenge(deps.db, 'operator_sign_in', answer, now);
  if (!kept || kept.subject !== SIGN_IN_SUBJECT) return undefined;
  const passkey = await operatorPasskeyByCredentialId(deps.db, answer.id);
  const operator = passkey && (await operatorById(deps.db, passkey.operator_id));
  if (!passkey || operator?.status !== 'active') return undefined;
  // A discoverable credential names its operator: it must be the one it was enrolled for.
  if (answer.response.userHandle !== operatorHandleOf(operator.id)) return undefined;
  return (await operatorSigned(deps, answer, kept.challenge, passkey, now)) ? operator : undefined;
}

/** POST /api/admin/reauth/options: a step-up challenge for this session, for the operator's own passkeys. */
export async function reauthOptions(deps: OperatorDeps, session: OperatorSession): Promise<CeremonyOptionsResponse> {
  const own = await operatorPasskeys(deps.db, session.id);
  const options = await generateAuthenticationOptions({
    rpID: relyingPartyOf(deps.issuer).id,
    userVerification: 'required',
    timeout: LIMITS.passkeyChallengeTtlMs,
    allowCredentials: own.map((k) => ({ id: k.credential_id, transports: transportsOf(k) })),
  });
  await keepChallenge(deps.db, { purpose: 'operator_reauth', challenge: options.challenge, subject: session.session_id, now: deps.clock.now() });
  return ceremonyOptions(options);
}

/** POST /api/admin/reauth: an assertion of one of the operator's own passkeys over this session's challenge stamps the session proved. */
export async function reauth(deps: OperatorDeps, session: OperatorSession, credential: z.infer<typeof webauthnResponseSchema>): Promise<BaseResponse> {
  const now = deps.clock.now();
  const answer = credential as unknown as AuthenticationResponseJSON;
  const kept = await takeChallenge(deps.db, 'operator_reauth', answer, now);
  if (!kept || kept.subject !== session.session_id) throw notAccepted();
  const passkey = await operatorPasskeyByCredentialId(deps.db, answer.id);
  if (!passkey || passkey.operator_id !== session.id) throw notAccepted();
  if (!(await operatorSigned(deps, answer, kept.challenge, passkey, now))) throw notAccepted();
  if (!(await markSessionProved(deps.db, session.session_id, now))) throw unauthorizedError();
  return OK_RESPONSE;
}

/**
 * A sensitive action's guard (decision 0032): the session's last passkey proof is at most
 * OPERATOR_LIMITS.freshProofMs old, or 401 `insufficient_user_authentication` (RFC 9470).
 */
export function requireFreshProof(deps: Pick<OperatorDeps, 'clock'>, session: OperatorSession): void {
  if (deps.clock.now() - Number(session.proved_at) > OPERATOR_LIMITS.freshProofMs) throw freshProofError(OPERATOR_LIMITS.freshProofMs, OPERATOR_MESSAGES.freshProofNeeded);
}

/** POST /api/admin/me: the operator and the limits of the session. */
export const me = (session: OperatorSession) => ({
  ...OK_RESPONSE,
  operator: operatorView(session),
  session: {
    created_at: Number(session.session_created_at),
    idle_expires_at: Math.min(Number(session.last_used_at) + OPERATOR_LIMITS.sessionIdleMs, Number(session.expires_at)),
    expires_at: Number(session.expires_at),
    proved_at: Number(session.proved_at),
  },
});

/** POST /api/admin/logout: the session ends; its token works no more. */
export async function logout(deps: OperatorDeps, session: OperatorSession): Promise<BaseResponse> {
  await endOperatorSession(deps.db, session.session_id, deps.clock.now());
  return OK_RESPONSE;
}
