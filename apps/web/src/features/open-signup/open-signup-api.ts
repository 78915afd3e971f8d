import type { z } from 'zod';
import { openSignupResponseSchema, type openSignupFieldsSchema } from '@sso/contracts/open-signup';
import { apiPost } from '../../lib/api-client.ts';

/** The open sign-up calls (SPEC.md section 3, "Open sign-up"), JSON bodies. */

export type OpenSignupFields = z.output<ReturnType<typeof openSignupFieldsSchema>>;

/**
 * The body of POST /api/signup/open: the input mode's fields, dry_run 1 for the confirm mode (the
 * server only validates) or 0 for the register, and the service(s) the sign-up started from
 * (SPEC.md section 2: the query parameter client_id).
 */
export const openSignupBody = (fields: OpenSignupFields, dryRun: 0 | 1, clientId: string) => ({ ...fields, dry_run: dryRun, client_id: clientId });

export const postOpenSignup = (fields: OpenSignupFields, dryRun: 0 | 1, clientId: string) =>
  apiPost('/api/signup/open', openSignupResponseSchema, { json: openSignupBody(fields, dryRun, clientId), what: 'open sign-up' });

/** POST /api/signup/open/otp: the activation link's token; answers the e-mail and the services to return to. */
export const activateOpenSignup = (onetimeToken: string) =>
  apiPost('/api/signup/open/otp', openSignupResponseSchema, { json: { onetime_token: onetimeToken }, what: 'open sign-up activation' });
