import type { z } from 'zod';
import { LIMITS } from '@sso/contracts/constants';
import { SERVER_MESSAGES, SIGNUP_MESSAGES } from '@sso/contracts/messages';
import type { cardSignupRequestSchema, SignupAuthorize, SignupStepResponse } from '@sso/contracts/signup';
import { AppError, recaptchaError, validationError } from '../../lib/app-error.ts';
import { lookupDigest, newId, randomToken, sha256 } from '../../lib/secrets.ts';
import type { CardRecord } from '../../ports/card-master.ts';
import { clearAttempts, countAttempt, isLocked } from '../account/login-throttle-repo.ts';
import { hashPassword } from '../account/passwords.ts';
import { grantedScope } from '../oauth/granted-scope.ts';
import type { SignupState } from '../../db/schema.ts';
import { countMessage, hashSecret, newCode, sendCode, storeSecret, type Channel, type SignupPurpose } from './codes.ts';
import { cardLinked } from '../cards/card-repo.ts';
import { insertFlow, type FlowRow } from './flow-repo.ts';
import {
  cardLockKey,
  retryable,
  signupLocked,
  stepAnswer,
  verifyLockKey,
  type FlowCard,
  type SignupDeps,
} from './flow-service.ts';

export type CardSignupInput = z.infer<typeof cardSignupRequestSchema>;

/** The client and its exact redirect URI are checked before anything else (901 naming the field). */
function checkClient(deps: SignupDeps, input: CardSignupInput): string {
  const invalid = (key: string) => validationError([{ key, message: SERVER_MESSAGES.validation }]);
  const client = deps.clients.get(input.client_id);
  if (!client) throw invalid('client_id');
  if (!deps.clients.isRegisteredRedirect(client, input.redirect_uri)) throw invalid('redirect_uri');
  const scope = grantedScope(client, input.scope);
  if (scope === undefined) throw invalid('scope');
  return scope;
}

/** The card fields of a card check: the sign-up's, and the upgrade's (decision 0016). */
export type CardFields = Pick<CardSignupInput, 'cardnumber' | 'cc_month' | 'cc_year' | 'cvc'>;

/**
 * Asks the card master about the card, counting the attempt first on the card number's throttle
 * (as the login does): of parallel guesses at a security code only LIMITS.signupCardFailuresBeforeLock
 * reach the card master, and the fifth failure locks the number for LIMITS.signupLockMs. An open
 * member adding a card (`register`, decision 0016) checks it here too, so that both share the bound.
 */
export async function lookUpCard(
  deps: Pick<SignupDeps, 'db' | 'clock' | 'cardMaster'>,
  input: CardFields,
  cardHash: string,
): Promise<CardRecord> {
  const key = cardLockKey(cardHash);
  const limit = LIMITS.signupCardFailuresBeforeLock;
  const { attempt } = await countAttempt(deps.db, key, deps.clock.now(), limit, LIMITS.signupLockMs);
  if (attempt > limit) throw signupLocked();
  const answer = await deps.cardMaster.lookup({ cardNumber: input.cardnumber, month: input.cc_month, year: input.cc_year, cvc: input.cvc });
  if (answer.kind === 'not_found') throw attempt >= limit ? signupLocked() : retryable(SIGNUP_MESSAGES.cardNotFound);
  await clearAttempts(deps.db, key);
  if (answer.kind === 'guide') {
    throw new AppError(answer.resultCode, answer.resultCode === 903 ? SIGNUP_MESSAGES.infoGuide : SIGNUP_MESSAGES.chatbotGuide);
  }
  return answer.card;
}

/** What a flow keeps of a card (the sign-up's, and the member flows' of decision 0006). */
export const flowCardOf = (card: CardRecord): FlowCard => ({
  esid: card.esid,
  brand: card.brand,
  cardName: card.cardName,
  cardImageUrl: card.cardImageUrl,
  memberDivCode: card.memberDivCode,
  numberMask: card.numberMask,
  holderMobileMasked: card.holderMobileMasked ?? null,
  bankAccountRequired: card.bankAccountLast4 !== undefined,
  holderId: card.holderId,
  status: card.status,
  pointCapable: card.pointCapable,
});

/** The PIN check's secret: the PIN, and the bank account's last 4 digits when the card has them. */
export const pinSecret = (pin: string, aNo: string | undefined, bankAccountRequired: boolean) =>
  bankAccountRequired ? `${pin}:${aNo ?? ''}` : pin;

interface CheckPlan {
  state: SignupState;
  purpose: SignupPurpose;
  /** Where the first code goes; the PIN check sends nothing. */
  send?: { channel: Channel; to: string };
  answer: Pick<SignupStepResponse, 'destination_to' | 'email' | 'tel'>;
}

/** The card master's check decides the first step (SPEC.md section 4, "Card sign-up flow"). */
function planCheck(card: CardRecord, email: string): CheckPlan {
  if (card.check === 'OtpSMS') {
    if (!card.holderMobile) throw new Error(`card master gave no holder mobile for the SMS check of ${card.esid}`);
    return {
      state: 'sms_otp',
      purpose: 'signup_sms',
      send: { channel: 'sms', to: card.holderMobile },
      answer: { destination_to: 'OtpSMS', tel: card.holderMobileMasked ?? '' },
    };
  }
  if (card.check === 'OtpEmail') {
    return { state: 'email_otp', purpose: 'signup_email', send: { channel: 'mail', to: email }, answer: { destination_to: 'OtpEmail', email } };
  }
  return { state: 'pin', purpose: 'signup_pin', answer: { destination_to: 'Pin' } };
}

/**
 * POST /api/signup/card (SPEC.md sections 3, 4 and 7; decision 0004). Checks the client, reCAPTCHA and
 * the card, then starts the flow with the card's check: an SMS code to the holder's mobile, a mail
 * code to the e-mail entered, or the PIN. The e-mail entered is not looked up here: whether it is a
 * member's is answered only after the e-mail OTP has proved the mailbox is the person's.
 */
export async function startCardSignup(deps: SignupDeps, input: CardSignupInput, ip: string): Promise<SignupStepResponse> {
  const scope = checkClient(deps, input);
  if (!(await deps.recaptcha.verify(input.recaptcha_token, 'CardSignup', ip))) throw recaptchaError();
  const cardHash = lookupDigest(input.cardnumber);
  const card = await lookUpCard(deps, input, cardHash);
  // Only someone who knows the card's number, expiry and security code gets this far, so these
  // answers tell a stranger nothing; a locked card gets no new register_token and sends no message.
  if (await isLocked(deps.db, verifyLockKey(cardHash), deps.clock.now())) throw signupLocked();
  if (await cardLinked(deps.db, card.esid)) throw retryable(SIGNUP_MESSAGES.cardAlreadyLinked);

  const email = input.username.toLowerCase();
  const plan = planCheck(card, email);
  if (plan.send) await countMessage(deps, plan.send.channel, plan.send.to);

  const stored = flowCardOf(card);
  const secret = plan.send ? await newCode() : { code: '', hash: await hashSecret(pinSecret(card.pin ?? '', card.bankAccountLast4, stored.bankAccountRequired)) };
  const registerToken = randomToken();
  const now = deps.clock.now();
  const { response_type, client_id, redirect_uri, state, code_challenge, code_challenge_method } = input;
  const authorize: SignupAuthorize = { response_type, client_id, redirect_uri, scope, state, code_challenge, code_challenge_method };
  const flow: FlowRow = {
    id: newId(),
    token_hash: sha256(registerToken),
    state: plan.state,
    card_hash: cardHash,
    card_json: JSON.stringify(stored),
    card_check: card.check,
    email,
    tel: plan.send?.channel === 'sms' ? plan.send.to : null,
    password_hash: await hashPassword(input.password),
    client_id,
    authorize_json: JSON.stringify(authorize),
    user_id: null,
    created_at: now,
    updated_at: now,
    expires_at: now + LIMITS.signupFlowTtlMs,
    mail_digital: null,
  };
  await deps.db.transaction().execute(async (trx) => {
    await insertFlow(trx, flow);
    // The PIN is the card's own: it lasts as long as the flow; a sent code lasts LIMITS.otpTtlMs.
    const expiresAt = plan.send ? now + LIMITS.otpTtlMs : flow.expires_at;
    await storeSecret(trx, { flowId: flow.id, purpose: plan.purpose, hash: secret.hash, now, expiresAt });
  });
  if (plan.send) await sendCode(deps, plan.send.channel, plan.send.to, secret.code);
  return stepAnswer(deps, flow, registerToken, plan.answer);
}
