import type { ZodType, z } from 'zod';
import { OAuthError, validationError } from '../lib/app-error.ts';

/** Parses a member-API payload with its contract schema; failures answer 901 with field keys. */
export function parseOr901<S extends ZodType>(schema: S, input: unknown): z.infer<S> {
  const result = schema.safeParse(input ?? {});
  if (result.success) return result.data;
  const seen = new Set<string>();
  const errors = result.error.issues
    .map((i) => ({ key: String(i.path[0] ?? ''), message: i.message }))
    .filter((e) => (seen.has(e.key) ? false : (seen.add(e.key), true)));
  throw validationError(errors);
}

/** Parses an OAuth endpoint payload; failures answer RFC 6749 invalid_request naming the parameter. */
export function parseOrInvalidRequest<S extends ZodType>(schema: S, input: unknown): z.infer<S> {
  const result = schema.safeParse(input ?? {});
  if (result.success) return result.data;
  const param = String(result.error.issues[0]?.path[0] ?? 'request');
  throw new OAuthError('invalid_request', `invalid or missing parameter: ${param}`);
}
