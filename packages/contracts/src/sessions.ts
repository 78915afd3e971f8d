import { z } from 'zod';
import { baseResponseSchema } from './common.ts';

/**
 * The member's signed-in browsers and services (/user/sessions; docs/decisions/0026-sso-session.md).
 * Times are epoch milliseconds.
 */

/** A browser's SSO session: the browser a login started it in, when, and when and for which service it was last used. */
export const browserSessionSchema = z.object({
  id: z.string(),
  /** A coarse description of the browser, such as "Chrome / Windows" (as the activity log's), or null. */
  device: z.string().nullable(),
  created_at: z.number(),
  last_used_at: z.number(),
  /** The service it was last used to sign in to, by name; null: none known. */
  last_service: z.string().nullable(),
  /**
   * When its automatic login ends unless the member uses the ID before (SPEC.md section 9: 90 days
   * from the last access; an authorize from it or the SPA's refresh slides it on).
   */
  expires_at: z.number(),
  /** The browser this request came from (この端末). */
  current: z.boolean(),
});
export type BrowserSession = z.infer<typeof browserSessionSchema>;

/** A service's session (a token family): the service's name, when it began and was last used (its last token). */
export const serviceSessionSchema = z.object({
  id: z.string(),
  client_id: z.string(),
  name: z.string(),
  created_at: z.number(),
  last_used_at: z.number(),
  /** The session this request is made in (この端末). */
  current: z.boolean(),
});
export type ServiceSession = z.infer<typeof serviceSessionSchema>;

/** POST /api/user/sessions (Bearer, account:write): newest use first. */
export const sessionsResponseSchema = baseResponseSchema.extend({
  browsers: z.array(browserSessionSchema),
  services: z.array(serviceSessionSchema),
});
export type SessionsResponse = z.infer<typeof sessionsResponseSchema>;

/**
 * POST /api/user/sessions/end (Bearer, account:write): ends one browser's SSO session with every
 * token that came from it (`browser`), or one service's session (`service`).
 */
export const endSessionRequestSchema = z.object({
  kind: z.enum(['browser', 'service']),
  id: z.string().min(1).max(64),
});
export type EndSessionRequest = z.infer<typeof endSessionRequestSchema>;
