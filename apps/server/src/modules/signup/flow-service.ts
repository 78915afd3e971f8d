import { OK_RESPONSE } from '@sso/contracts/common';
import { SIGNUP_MESSAGES } from '@sso/contracts/messages';
import type { SignupAuthorize, SignupStepResponse } from '@sso/contracts/signup';
import type { SignupState } from '../../db/schema.ts';
import { deniedWith } from '../../lib/app-error.ts';
import { sha256 } from '../../lib/secrets.ts';
import type { CardMaster } from '../../ports/card-master.ts';
import type { RecaptchaVerifier } from '../../ports/recaptcha.ts';
import type { FlowCard } from '../cards/card-lookup.ts';
import type { Notifier } from '../notifications/notifier.ts';
import type { AuthorizeDeps } from '../oauth/authorize-service.ts';
import { findLiveFlow, type FlowRow } from './flow-repo.ts';

export interface SignupDeps extends AuthorizeDeps {
  recaptcha: RecaptchaVerifier;
  notifier: Notifier;
  cardMaster: CardMaster;
}

/** SPEC.md section 8: 300 for an unknown, expired or finished register_token, or a step out of order. */
export const signupExpired = () => deniedWith(SIGNUP_MESSAGES.flowExpired);

/** The card the sign-up keeps (cards/card-lookup.ts flowCardOf). */
export const flowCard = (flow: FlowRow) => JSON.parse(flow.card_json) as FlowCard;

/**
 * The authorization request a sign-up continues (its flow's authorize_json): the authorize
 * parameters, read from the pushed request for one started from a request_uri, whose key (`pushed`,
 * the request_uri's digest: decision 0036) the end then requires and uses up (complete.ts).
 */
export type FlowAuthorize = SignupAuthorize & { pushed?: string | undefined };

export const flowAuthorize = (flow: FlowRow) => JSON.parse(flow.authorize_json) as FlowAuthorize;

/**
 * The authorize parameters a step answer echoes: all of a plain request's; of a pushed one the
 * client only, for its parameters never pass through the browser (RFC 9126 section 4): the SPA
 * carries client_id and request_uri as it got them.
 */
function echoedAuthorize(flow: FlowRow): Partial<SignupAuthorize> {
  const { pushed, ...authorize } = flowAuthorize(flow);
  return pushed === undefined ? authorize : { client_id: authorize.client_id };
}

/** The live flow of a register_token in the state the step expects; anything else answers 300. */
export async function loadFlow(deps: SignupDeps, registerToken: string, state: SignupState): Promise<FlowRow> {
  const flow = await findLiveFlow(deps.db, sha256(registerToken), deps.clock.now());
  if (!flow || flow.state !== state) throw signupExpired();
  return flow;
}

/**
 * A successful step's answer (SPEC.md section 3, "Sign-up step response"): the register_token, the
 * terms the new member must accept, and the authorize parameters (echoedAuthorize), so that the
 * SPA can finish the flow from any step's answer.
 */
export function stepAnswer(
  deps: SignupDeps,
  flow: FlowRow,
  registerToken: string,
  extra: Pick<SignupStepResponse, 'destination_to' | 'email' | 'tel'> = {},
): SignupStepResponse {
  return {
    ...OK_RESPONSE,
    register_token: registerToken,
    ...extra,
    terms: deps.clients.get(flow.client_id)?.terms ?? [],
    ...echoedAuthorize(flow),
  };
}
