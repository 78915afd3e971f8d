import type { z } from 'zod';
import { LIMITS } from '@sso/contracts/constants';
import { SERVER_MESSAGES, SIGNUP_MESSAGES } from '@sso/contracts/messages';
import { signupAuthorizeSchema, type cardSignupRequestSchema, type SignupStepResponse } from '@sso/contracts/signup';
import type { SignupState } from '../../db/schema.ts';
import { recaptchaError, retryable, validationError } from '../../lib/app-error.ts';
import { lookupDigest, newId, randomToken, sha256 } from '../../lib/secrets.ts';
import type { CardRecord } from '../../ports/card-master.ts';
import { hashPassword } from '../../lib/passwords.ts';
import { cardLocked, flowCardOf, lookUpCard } from '../cards/card-lookup.ts';
import { grantedScope } from '../oauth/granted-scope.ts';
import { readAuthorizationRequest } from '../oauth/pushed-request.ts';
import { keepPushedRequestUntil } from '../oauth/pushed-request-repo.ts';
import { recaptchaRefused } from '../../lib/security-events.ts';
import { hashSecret, newCode } from '../verification/codes.ts';
import { startFlow } from '../verification/flow.ts';
import { countMessage } from '../verification/message-limit.ts';
import { sendCode } from '../verification/otp-message.ts';
import { secretLocked } from '../verification/secret-check.ts';
import { cardLinked } from '../cards/card-repo.ts';
import { insertFlow, type FlowRow } from './flow-repo.ts';
import { stepAnswer, type FlowAuthorize, type SignupDeps } from './flow-service.ts';
import type { Channel, SignupPurpose } from './signup-check.ts';

export type CardSignupInput = z.infer<typeof cardSignupRequestSchema>;

/** The body's fields an authorization request is read from: the authorize parameters, or client_id and a pushed request's request_uri. */
const REQUEST_KEYS = [...Object.keys(signupAuthorizeSchema.shape), 'request_uri'] as (keyof CardSignupInput)[];

/**
 * The authorization request the sign-up continues, checked before anything else (901 naming the
 * field, as the SPA's check names it: decision 0019): read as the authorize endpoints read it
 * (readAuthorizationRequest: a request_uri's pushed parameters, RFC 9126 section 4), so that an
 * unknown, used, expired or other client's request_uri, or a plain request of a client that requires
 * pushed requests (section 5), is refused here, not after the member typed everything; then the
 * client, its exact redirect URI and the scope. For a pushed request the flow keeps its key, which
 * the end uses up with the code (complete.ts).
 */
async function readSignupRequest(deps: SignupDeps, input: CardSignupInput): Promise<FlowAuthorize> {
  const invalid = (key: string) => validationError([{ key, message: SERVER_MESSAGES.validation }]);
  const sent: Record<string, unknown> = {};
  for (const key of REQUEST_KEYS) if (input[key] !== undefined) sent[key] = input[key];
  const request = await readAuthorizationRequest(deps, sent);
  if (!request) throw invalid('request_uri');
  const asked = signupAuthorizeSchema.safeParse(request.query);
  if (!asked.success) throw invalid(String(asked.error.issues[0]?.path[0] ?? 'request_uri'));
  const client = deps.clients.get(asked.data.client_id);
  if (!client) throw invalid('client_id');
  if (!deps.clients.isRegisteredRedirect(client, asked.data.redirect_uri)) throw invalid('redirect_uri');
  const scope = grantedScope(client, asked.data.scope);
  if (scope === undefined) throw invalid('scope');
  return { ...asked.data, scope, pushed: request.pushed };
}

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
  const authorize = await readSignupRequest(deps, input);
  if (!(await deps.recaptcha.verify(input.recaptcha_token, 'CardSignup', ip))) throw recaptchaRefused('card_signup', input.client_id, recaptchaError());
  const cardHash = lookupDigest(input.cardnumber);
  const card = await lookUpCard(deps, input, cardHash);
  // Only someone who knows the card's number, expiry and security code gets this far, so these
  // answers tell a stranger nothing; a locked card gets no new register_token and sends no message.
  // Every sign-up secret is under the card's one lock (verification/purposes.ts).
  if (await secretLocked(deps.db, 'signup_sms', cardHash, deps.clock.now())) throw cardLocked();
  if (await cardLinked(deps.db, card.esid)) throw retryable(SIGNUP_MESSAGES.cardAlreadyLinked);

  const email = input.username.toLowerCase();
  const plan = planCheck(card, email);
  if (plan.send) await countMessage(deps, plan.send.channel, plan.send.to);

  const stored = flowCardOf(card);
  const secret = plan.send ? await newCode() : { code: '', hash: await hashSecret(pinSecret(card.pin ?? '', card.bankAccountLast4, stored.bankAccountRequired)) };
  const registerToken = randomToken();
  const now = deps.clock.now();
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
    client_id: authorize.client_id,
    authorize_json: JSON.stringify(authorize),
    user_id: null,
    created_at: now,
    updated_at: now,
    expires_at: now + LIMITS.signupFlowTtlMs,
    mail_digital: null,
  };
  // The PIN is the card's own: it lasts as long as the flow; a sent code LIMITS.otpTtlMs (verification/purposes.ts).
  await startFlow(deps.db, {
    purpose: plan.purpose,
    hash: secret.hash,
    now,
    flowId: flow.id,
    flowExpiresAt: flow.expires_at,
    store: async (trx) => {
      await insertFlow(trx, flow);
      // The pushed request lasts as long as the sign-up that carries it (decision 0036).
      if (authorize.pushed) await keepPushedRequestUntil(trx, authorize.pushed, now, flow.expires_at);
      return [];
    },
  });
  if (plan.send) await sendCode(deps, plan.send.channel, plan.send.to, secret.code);
  return stepAnswer(deps, flow, registerToken, plan.answer);
}
