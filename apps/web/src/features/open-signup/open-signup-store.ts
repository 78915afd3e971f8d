import { z } from 'zod';
import type { OpenSignupResponse } from '@sso/contracts/open-signup';
import { serviceLinkSchema, type ServiceLink } from '@sso/contracts/user';
import { readHeldRecord } from '../../lib/held-record.ts';
import { removeRecord, writeRecord } from '../../lib/storage.ts';

/**
 * The held open sign-up answer (SPEC.md sections 2 and 4), kept in the browser's storage so that a
 * reload stays on the page: after the register the sent page shows the address the mail went to;
 * after the activation the finish page shows the services to return to. Never a token: the
 * activation link travels only by mail.
 */
export type HeldOpenSignup = { step: 'sent'; email: string } | { step: 'done'; email: string; links: ServiceLink[] };

const NAME = 'openSignup';

const heldOpenSignupSchema = z.discriminatedUnion('step', [
  z.object({ step: z.literal('sent'), email: z.string() }),
  z.object({ step: z.literal('done'), email: z.string(), links: z.array(serviceLinkSchema) }),
]) satisfies z.ZodType<HeldOpenSignup>;

/** Holds the register answer for the sent page. */
export function holdSent(res: Pick<OpenSignupResponse, 'email'>): HeldOpenSignup {
  const held: HeldOpenSignup = { step: 'sent', email: res.email };
  writeRecord(NAME, held);
  return held;
}

/** Holds the activation answer for the finish page: the services the sign-up started from. */
export function holdDone(res: Pick<OpenSignupResponse, 'email' | 'links'>): HeldOpenSignup {
  const held: HeldOpenSignup = { step: 'done', email: res.email, links: res.links.map(({ name, client_id }) => ({ name, client_id })) };
  writeRecord(NAME, held);
  return held;
}

/** The held answer at `step`, if there is one and it is whole; anything else counts as none. */
export function getHeldOpenSignup<S extends HeldOpenSignup['step']>(step: S): Extract<HeldOpenSignup, { step: S }> | undefined {
  const held = readHeldRecord(NAME, heldOpenSignupSchema);
  return held?.step === step ? (held as Extract<HeldOpenSignup, { step: S }>) : undefined;
}

export const clearHeldOpenSignup = () => removeRecord(NAME);
