import type { SubuserStatus } from '@sso/contracts/constants';
import { SERVER_MESSAGES, SIGNUP_MESSAGES } from '@sso/contracts/messages';
import { RESULT } from '@sso/contracts/result-codes';
import type { SignupAuthorize, SignupStepResponse } from '@sso/contracts/signup';
import type { SignupState } from '../../db/schema.ts';
import type { NewSubuser } from '../cards/card-repo.ts';
import { AppError } from '../../lib/app-error.ts';
import { sha256 } from '../../lib/secrets.ts';
import type { CardMaster } from '../../ports/card-master.ts';
import type { RecaptchaVerifier } from '../../ports/recaptcha.ts';
import type { Notifier } from '../notifications/notifier.ts';
import type { AuthorizeDeps } from '../oauth/authorize-service.ts';
import { findLiveFlow, type FlowRow } from './flow-repo.ts';

export interface SignupDeps extends AuthorizeDeps {
  recaptcha: RecaptchaVerifier;
  notifier: Notifier;
  cardMaster: CardMaster;
}

/** SPEC.md section 8: 300 for an unknown, expired or finished register_token, or a step out of order. */
export const flowExpired = () => new AppError(RESULT.ACCESS_DENIED, SIGNUP_MESSAGES.flowExpired);
export const signupLocked = () => new AppError(RESULT.LOCKED, SIGNUP_MESSAGES.locked);
/** 902: the SPA shows the message and clears the OTP or PIN field (SPEC.md section 8). */
export const retryable = (message: string) => new AppError(RESULT.RETRYABLE, message);

/** Failed card checks of one card number (the number, expiry and security code). */
export const cardLockKey = (cardHash: string) => `signup-card:${cardHash}`;
/** Wrong OTPs and PINs of one card, across its register_tokens. */
export const verifyLockKey = (cardHash: string) => `signup-verify:${cardHash}`;

/** What the flow keeps of the card master's answer: enough for the sub-user row, never the PIN. */
export interface FlowCard {
  esid: string;
  brand: string;
  cardName: string;
  cardImageUrl: string;
  memberDivCode: string;
  numberMask: string;
  holderMobileMasked: string | null;
  /** The PIN check also asks for the bank account's last 4 digits. */
  bankAccountRequired: boolean;
  /** The card master's cardholder and the card's status and points (decision 0006); absent in flows begun before it. */
  holderId?: string;
  status?: SubuserStatus;
  pointCapable?: boolean;
}

export const flowCard = (flow: FlowRow) => JSON.parse(flow.card_json) as FlowCard;

/** A new sub-user row of a card a flow kept: the card master's status, holder and points (decision 0006). */
export const subuserOfCard = (card: FlowCard, p: { id: string; mailDigital: number | null }): NewSubuser => ({
  id: p.id,
  esid: card.esid,
  // The card master's status: a new card may still wait for its activation key (decision 0006).
  status: card.status ?? 'active',
  member_div_code: card.memberDivCode,
  card_name: card.cardName,
  card_image_url: card.cardImageUrl,
  card_brand: card.brand,
  card_number_mask: card.numberMask,
  holder_id: card.holderId ?? null,
  point_capable: card.pointCapable === false ? 0 : 1,
  na_id: null,
  mail_digital: p.mailDigital,
});

export const flowAuthorize = (flow: FlowRow) => JSON.parse(flow.authorize_json) as SignupAuthorize;

/** The live flow of a register_token in the state the step expects; anything else answers 300. */
export async function loadFlow(deps: SignupDeps, registerToken: string, state: SignupState): Promise<FlowRow> {
  const flow = await findLiveFlow(deps.db, sha256(registerToken), deps.clock.now());
  if (!flow || flow.state !== state) throw flowExpired();
  return flow;
}

/**
 * A successful step's answer (SPEC.md section 3, "Sign-up step response"): the register_token, the
 * terms the new member must accept, and the authorize parameters, so that the SPA can finish the
 * flow from any step's answer.
 */
export function stepAnswer(
  deps: SignupDeps,
  flow: FlowRow,
  registerToken: string,
  extra: Pick<SignupStepResponse, 'destination_to' | 'email' | 'tel'> = {},
): SignupStepResponse {
  return {
    result_code: RESULT.OK,
    result_message: SERVER_MESSAGES.ok,
    register_token: registerToken,
    ...extra,
    terms: deps.clients.get(flow.client_id)?.terms ?? [],
    ...flowAuthorize(flow),
  };
}
