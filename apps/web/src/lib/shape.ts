import type { z } from 'zod';

/**
 * Checks a server answer against its contract. A mismatch only logs a warning (SPEC.md section 3);
 * a matching answer comes back parsed, so that defaults (such as an empty terms list) apply.
 */
export function checkShape<S extends z.ZodType>(schema: S, body: unknown, what: string): z.output<S> {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  console.warn(`${what}: the answer does not match the contract`, parsed.error.issues);
  return body as z.output<S>;
}

