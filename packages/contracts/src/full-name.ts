import type { z } from 'zod';
import { VALIDATION_MESSAGES as M } from './validation-messages.ts';

/** The kanji name and the kana name are each limited to 19 characters as a whole (SPEC.md section 5, "Names"). */
export const FULL_NAME_MAX = 19;

/** The profile field keys of SPEC.md section 3 that stand for a family and a given name together. */
const WHOLE_NAMES = [
  { key: 'full_name', parts: ['last_name', 'first_name'], message: M.fullNameLength },
  { key: 'full_name_kana', parts: ['last_name_kana', 'first_name_kana'], message: M.fullNameKanaLength },
] as const;

/** Characters as a member counts them: a kanji outside the basic plane is one, not two UTF-16 units. */
const length = (s: string) => [...s].length;

/**
 * Family and given name together at most FULL_NAME_MAX characters, for the kanji name and the kana
 * name each; the error is keyed `full_name` or `full_name_kana` (SPEC.md section 3, "Field keys"),
 * as the server's validation_errors and the forms name it. A schema holding only one of the two
 * (the open-account link has the kana name only) is checked for that one.
 */
export function fullNameRule(v: Record<string, unknown>, ctx: z.RefinementCtx): void {
  for (const { key, parts, message } of WHOLE_NAMES) {
    const [family, given] = parts.map((p) => v[p]);
    if (typeof family !== 'string' || typeof given !== 'string') continue;
    if (length(family.trim() + given.trim()) > FULL_NAME_MAX) ctx.addIssue({ code: 'custom', path: [key], message });
  }
}

/** Runs the whole-name rule while other fields are still invalid, so that every error shows at once. */
export const FULL_NAME_WHEN = {
  when: ({ value }: { value: unknown }) => typeof value === 'object' && value !== null,
};
