import type { z } from 'zod';
import { OK_RESPONSE, type BaseResponse } from '@sso/contracts/common';
import type { mailDigitalRequestSchema } from '@sso/contracts/upgrade';
import type { SignupState } from '../../db/schema.ts';
import { sha256 } from '../../lib/secrets.ts';
import { setFlowMailDigital } from './flow-repo.ts';
import { signupExpired, type SignupDeps } from './flow-service.ts';

/**
 * The steps before terms_accept: the choice is carried to the card when the member is created
 * there, so a flow at 'authorize' or 'done' (member already made) takes none.
 */
const OPEN_STATES: readonly SignupState[] = ['sms_otp', 'pin', 'email_otp', 'terms'];

/**
 * POST /api/signup/mail/digital (SPEC.md section 7; docs/decisions/0006): the paperless-statement
 * choice of the card sign-up's notice (1 web, 0 paper), stored on the live flow; terms_accept puts
 * it on the card and sends it to the card master. The last choice counts. An unknown, expired or
 * finished register_token answers 300 as the other steps do.
 */
export async function chooseMailDigital(
  deps: Pick<SignupDeps, 'db' | 'clock'>,
  input: z.infer<typeof mailDigitalRequestSchema>,
): Promise<BaseResponse> {
  const stored = await setFlowMailDigital(deps.db, {
    tokenHash: sha256(input.register_token),
    states: OPEN_STATES,
    mailDigital: input.mail_digital,
    now: deps.clock.now(),
  });
  if (!stored) throw signupExpired();
  return OK_RESPONSE;
}
