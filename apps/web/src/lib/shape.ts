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

/**
 * checkShape with a schema that loads on first use, so that zod and the contracts stay out of the
 * JavaScript a route needs first (docs/performance.md). Call it before the request, so that both
 * load together; a schema that cannot load leaves the answer unchecked, with a warning, as a
 * mismatch does.
 */
export function checkShapeLater<S extends z.ZodType>(load: () => Promise<S>, what: string): (body: unknown) => Promise<z.output<S>> {
  const schema = load().catch((e: unknown) => {
    console.warn(`${what}: the contract did not load`, e);
    return undefined;
  });
  return async (body) => {
    const loaded = await schema;
    return loaded ? checkShape(loaded, body, what) : (body as z.output<S>);
  };
}
