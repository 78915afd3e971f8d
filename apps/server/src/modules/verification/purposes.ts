import { LIMITS } from '@sso/contracts/constants';
import type { VerificationPurpose } from './verification-repo.ts';

/** The purposes' names are the `verifications.purpose` column's type (verification-repo.ts). */
export type { VerificationPurpose };

/** Whose run of wrong answers locks a purpose's check, and for how long (decision 0004). */
export interface SecretLock {
  /** What the caller names as the lock's owner: the card's number (its lookup digest) or the member's id. */
  of: 'card' | 'member';
  key: (owner: string) => string;
  /** The wrong answer that reaches `limit` locks the key for `lockMs` (203). */
  limit: number;
  lockMs: number;
}

/**
 * A code or PIN: 10^6 or 10^4 values, so stored as argon2id (a plain SHA-256 of one is reversed in
 * milliseconds) and answered with `maxTries` tries under a lock. A card's PIN is never sent: it
 * lives `pinTtlMs` (by default `ttlMs`), and never beyond its flow.
 */
export interface TriedCode {
  secret: 'tried code';
  ttlMs: number;
  pinTtlMs?: number;
  maxTries: number;
  lock: SecretLock;
  /** A new secret of the subject ends its live one of this purpose (a resend, the next step's code). */
  onePerSubject: boolean;
}

/** A 256-bit token in a link or a hand-off: stored as its SHA-256 (which finds the row), used up once, no tries. */
export interface SingleUseToken {
  secret: 'single-use token';
  ttlMs: number;
  /** A new secret of the subject ends its live one of this purpose (a new reset link kills the older). */
  onePerSubject: boolean;
}

export type PurposeRule = TriedCode | SingleUseToken;

const TRIES = LIMITS.signupVerifyFailuresBeforeLock;
/** Wrong OTPs and PINs of one card, across its flows (the sign-up's and the upgrade's). */
export const verifyLockKey = (cardHash: string) => `signup-verify:${cardHash}`;
/** The card's lock: shared by the sign-up and the upgrade, so that guesses at either count once. */
const CARD: SecretLock = { of: 'card', key: verifyLockKey, limit: TRIES, lockMs: LIMITS.signupLockMs };
const member = (name: string): SecretLock => ({ of: 'member', key: (userId) => `${name}:${userId}`, limit: TRIES, lockMs: LIMITS.signupLockMs });

/**
 * The purposes: kind of secret, lifetime, tries and lock. Figures are LIMITS (packages/contracts);
 * a flow's own lifetime (signup_flows, member_flows, email_changes, open_signups) is its module's,
 * and a secret never outlives its flow.
 */
export const PURPOSES: { readonly [P in VerificationPurpose]: PurposeRule } = {
  signup_sms: { secret: 'tried code', ttlMs: LIMITS.otpTtlMs, maxTries: TRIES, lock: CARD, onePerSubject: true },
  signup_email: { secret: 'tried code', ttlMs: LIMITS.otpTtlMs, maxTries: TRIES, lock: CARD, onePerSubject: true },
  // The PIN is the card's own: it lasts as long as the sign-up.
  signup_pin: { secret: 'tried code', ttlMs: LIMITS.signupFlowTtlMs, maxTries: TRIES, lock: CARD, onePerSubject: true },
  upgrade: { secret: 'tried code', ttlMs: LIMITS.otpTtlMs, pinTtlMs: LIMITS.memberFlowTtlMs, maxTries: TRIES, lock: CARD, onePerSubject: false },
  point_transfer: { secret: 'tried code', ttlMs: LIMITS.otpTtlMs, maxTries: TRIES, lock: member('point-transfer'), onePerSubject: false },
  numberless: { secret: 'tried code', ttlMs: LIMITS.otpTtlMs, maxTries: TRIES, lock: member('numberless'), onePerSubject: false },
  login_tel: { secret: 'tried code', ttlMs: LIMITS.otpTtlMs, maxTries: TRIES, lock: member('login-tel'), onePerSubject: false },
  email_change: { secret: 'tried code', ttlMs: LIMITS.otpTtlMs, maxTries: TRIES, lock: member('email-change'), onePerSubject: false },
  open_activation: { secret: 'single-use token', ttlMs: LIMITS.openSignupValidMinutes * 60_000, onePerSubject: false },
  password_reset: { secret: 'single-use token', ttlMs: LIMITS.passwordResetValidMinutes * 60_000, onePerSubject: true },
  direct_login: { secret: 'single-use token', ttlMs: LIMITS.directLoginTokenTtlMs, onePerSubject: false },
  login_ticket: { secret: 'single-use token', ttlMs: LIMITS.loginTicketTtlMs, onePerSubject: false },
  passkey_login: { secret: 'single-use token', ttlMs: LIMITS.passkeyChallengeTtlMs, onePerSubject: false },
  passkey_register: { secret: 'single-use token', ttlMs: LIMITS.passkeyChallengeTtlMs, onePerSubject: false },
  passkey_reauth: { secret: 'single-use token', ttlMs: LIMITS.passkeyChallengeTtlMs, onePerSubject: false },
  passkey_ticket: { secret: 'single-use token', ttlMs: LIMITS.passkeyLoginTicketTtlMs, onePerSubject: false },
  passkey_revoke: { secret: 'single-use token', ttlMs: LIMITS.passkeyRevokeLinkTtlMs, onePerSubject: false },
  // Each notice mail has its own link: the member may act on any of them.
  not_me: { secret: 'single-use token', ttlMs: LIMITS.notMeLinkTtlMs, onePerSubject: false },
  // The mail's; the finish page's ends sooner (`endsBy`).
  passkey_reset_review: { secret: 'single-use token', ttlMs: LIMITS.passkeyReviewLinkTtlMs, onePerSubject: false },
  operator_enrol: { secret: 'single-use token', ttlMs: LIMITS.passkeyChallengeTtlMs, onePerSubject: false },
  operator_sign_in: { secret: 'single-use token', ttlMs: LIMITS.passkeyChallengeTtlMs, onePerSubject: false },
  operator_reauth: { secret: 'single-use token', ttlMs: LIMITS.passkeyChallengeTtlMs, onePerSubject: false },
};

/** The rule of a purpose whose secret is a tried code (a programming error otherwise). */
export function triedCode(purpose: VerificationPurpose): TriedCode {
  const rule = PURPOSES[purpose];
  if (rule.secret !== 'tried code') throw new Error(`${purpose} has no tried code`);
  return rule;
}
