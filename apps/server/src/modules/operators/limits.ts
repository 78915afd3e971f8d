/**
 * The limits of the operator identity (docs/decisions/0032-operator-identity.md), in one place:
 * an operator session dies 15 minutes after its last use and 8 hours after its sign-in whatever its
 * use; a sensitive action needs a passkey proof of the last 5 minutes; an enrolment link lives 30
 * minutes and works once.
 */
export const OPERATOR_LIMITS = {
  sessionIdleMs: 15 * 60_000,
  sessionMaxMs: 8 * 60 * 60_000,
  freshProofMs: 5 * 60_000,
  enrolmentLinkMs: 30 * 60_000,
  /** Refused sign-ins from one network address in 15 minutes before that address is refused outright. */
  signInFailuresPerAddress: 30,
  signInFailureWindowMs: 15 * 60_000,
  /** Unknown enrolment links tried from one network address in 15 minutes before every link is refused from it. */
  enrolmentGuessesPerAddress: 20,
} as const;

/** The operator token's prefix: an operator token is told from a member's access token before any lookup. */
export const OPERATOR_TOKEN_PREFIX = 'op_';
