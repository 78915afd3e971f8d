import { useCallback, useMemo } from 'react';
import { useForm, type DefaultValues, type Path, type PathValue } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import { normalisedResolver } from './normalised-resolver.ts';
import { useFailureView } from './use-failure-view.ts';

/** A form of text fields, each empty at first. */
type TextFields = Record<string, string>;

/**
 * The form of a screen that sends a secret (a one-time password, an activation key, a password),
 * its fields the schema's (SPEC.md sections 5 and 8): each empty at first, validated on blur and
 * again on change, and a failure view that puts 901 errors on these fields and whose 902 clears the
 * secret and puts the cursor back in it. `schema` is a module constant, so the view is stable.
 */
export function useSecretForm<T extends TextFields>(
  schema: z.ZodType<T, T> & { shape: Record<keyof T, unknown> },
  secret: Path<T>,
  setMessage: (message: string | undefined) => void,
) {
  const fields = useMemo(() => Object.keys(schema.shape) as Path<T>[], [schema]);
  const form = useForm<T>({
    resolver: normalisedResolver(zodResolver(schema)),
    mode: 'onBlur',
    reValidateMode: 'onChange',
    defaultValues: Object.fromEntries(fields.map((f) => [f, ''])) as DefaultValues<T>,
  });
  const { setValue, setFocus, setError } = form;
  const clearSecrets = useCallback(() => {
    setValue(secret, '' as PathValue<T, Path<T>>);
    setFocus(secret);
  }, [setValue, setFocus, secret]);
  const view = useFailureView({ setMessage, setError, fields, clearSecrets });
  return { form, view };
}
