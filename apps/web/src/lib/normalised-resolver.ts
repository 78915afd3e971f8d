import type { FieldValues, Resolver } from 'react-hook-form';
import { normaliseFields } from './input-normalise.ts';

/**
 * A form's resolver that checks (and hands on) the values as lib/input-normalise.ts brings them to the
 * rules of SPEC.md section 5, field by field name: a field submitted without losing focus first
 * (Enter in it) is converted as one that lost focus is, so that "090-1234-5678" is sent as digits.
 */
export function normalisedResolver<I extends FieldValues, C, O>(resolver: Resolver<I, C, O>): Resolver<I, C, O> {
  return (values, context, options) => resolver(normaliseFields(values), context, options);
}
