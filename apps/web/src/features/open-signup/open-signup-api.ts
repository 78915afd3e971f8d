import type { z } from 'zod';
import { openSignupResponseSchema, type openSignupFieldsSchema } from '@sso/contracts/open-signup';
import { apiPost } from '../../lib/api-client.ts';
import { checkShape } from '../../lib/shape.ts';

/** The open sign-up calls (SPEC.md section 3, "Open sign-up"), JSON bodies. */

export type OpenSignupFields = z.output<ReturnType<typeof openSignupFieldsSchema>>;

/**
 * The body of POST /api/signup/open: the input mode's fields, dry_run 1 for the confirm mode (the
 * server only validates) or 0 for the register, and the service(s) the sign-up started from
 * (SPEC.md section 2: the query parameter client_id).
 */
export const openSignupBody = (fields: OpenSignupFields, dryRun: 0 | 1, clientId: string) => ({ ...fields, dry_run: dryRun, client_id: clientId });

const answer = (body: unknown, what: string) => checkShape(openSignupResponseSchema, body, what);

export const postOpenSignup = async (fields: OpenSignupFields, dryRun: 0 | 1, clientId: string) =>
  answer(await apiPost<unknown>('/api/signup/open', { json: openSignupBody(fields, dryRun, clientId) }), 'open sign-up');

/** POST /api/signup/open/otp: the activation link's token; answers the e-mail and the services to return to. */
export const activateOpenSignup = async (onetimeToken: string) =>
  answer(await apiPost<unknown>('/api/signup/open/otp', { json: { onetime_token: onetimeToken } }), 'open sign-up activation');
