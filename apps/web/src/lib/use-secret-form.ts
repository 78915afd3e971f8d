import { useCallback, useState } from 'react';
import type { DefaultValues, Path, PathValue, UseFormReturn } from 'react-hook-form';
import type { z } from 'zod';
import { useMemberForm, type MemberFormOptions } from './use-member-form.ts';

/** A form of text fields, each empty at first. */
type TextFields = Record<string, string>;
export type SecretForm<T extends TextFields> = UseFormReturn<T, unknown, T>;

export interface SecretFormOptions<T extends TextFields> extends Pick<MemberFormOptions<T, T>, 'send' | 'onFlowEnded' | 'onFailure'> {
  /** The form's fields: a module constant. */
  schema: z.ZodType<T, T> & { shape: Record<keyof T, unknown> };
  /** The field a refusal empties and puts the cursor back in. */
  secret: Path<T>;
}

/**
 * The member form (lib/use-member-form.ts) of a screen that sends a secret (a one-time password, an
 * activation key, a password), its fields the schema's, each empty at first: a refusal (902, SPEC.md
 * section 8) clears the secret and puts the cursor back in it.
 */
export function useSecretForm<T extends TextFields>({ schema, secret, ...rest }: SecretFormOptions<T>) {
  const [defaultValues] = useState(() => Object.fromEntries(Object.keys(schema.shape).map((f) => [f, ''])) as DefaultValues<T>);
  const clearSecrets = useCallback(
    (form: SecretForm<T>) => {
      form.setValue(secret, '' as PathValue<T, Path<T>>);
      form.setFocus(secret);
    },
    [secret],
  );
  return useMemberForm<T>({ schema, defaultValues, clearSecrets, ...rest });
}
