import type { z } from 'zod';
import { checkShape } from './shape.ts';
import { unexpectedFailure } from './result.ts';

/** What a login needs of a token answer (SPEC.md section 3, "Token response"). */
export interface TokenFields {
  access_token: string;
  refresh_token?: string;
}

const text = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);

/**
 * Reads a token answer: the code exchange, the direct-login exchange and the refresh. A mismatch
 * with its contract only logs a warning (SPEC.md section 3), so an answer that carries what is
 * needed goes on (an `expires_in` sent as a string, a field more or less); an answer without an
 * access token fails (tokenFields). The exchanges read their answer with apiPost, which warns.
 */
export function readTokenAnswer(schema: z.ZodType, body: unknown, what: string): TokenFields {
  checkShape(schema, body, what);
  return tokenFields(body);
}

/**
 * What a token answer carries: without an access token it fails (an ApiFailure with the unexpected
 * message, SPEC.md section 8). Whether a refresh token is needed too is the caller's to say (a
 * login needs one, a refresh may keep its own).
 */
export function tokenFields(body: unknown): TokenFields {
  const fields = (body ?? {}) as Record<string, unknown>;
  const access = text(fields.access_token);
  if (!access) throw unexpectedFailure(200);
  const refresh = text(fields.refresh_token);
  return refresh ? { access_token: access, refresh_token: refresh } : { access_token: access };
}
