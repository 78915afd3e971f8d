import type { z } from 'zod';
import { readRecord } from './storage.ts';

/**
 * A record the browser holds for a flow under way (SPEC.md section 3, "Browser-held records": in
 * session storage, or in a history entry's state), checked against its schema: a whole one comes
 * back parsed, anything else (none, a broken or foreign one, one of an older version) counts as
 * none. The server's flow is the authority; a held record only says which screen to show and what
 * to show on it.
 */
export function heldRecordOf<S extends z.ZodType>(schema: S, value: unknown): z.output<S> | undefined {
  const parsed = schema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}

/** The record held in storage under `name` (lib/storage.ts), checked as heldRecordOf does. */
export const readHeldRecord = <S extends z.ZodType>(name: string, schema: S): z.output<S> | undefined => heldRecordOf(schema, readRecord<unknown>(name));
