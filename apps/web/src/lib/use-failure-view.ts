import { useMemo } from 'react';
import type { FieldPath, FieldValues, UseFormSetError } from 'react-hook-form';
import type { FailureView } from './failure-view.ts';

interface FailureViewParts<T extends FieldValues> {
  setMessage: (message: string | undefined) => void;
  setError: UseFormSetError<T>;
  /** The form's fields: a server validation error naming another key is not shown on a field. */
  fields: readonly FieldPath<T>[];
  /** Clears the one-time password or PIN on a 902; stable (a useCallback) so the view is too. */
  clearSecrets?: () => void;
}

/** The view a form gives showFailure (lib/failure-view.ts): its message, its fields' errors, its secrets. */
export function useFailureView<T extends FieldValues>({ setMessage, setError, fields, clearSecrets }: FailureViewParts<T>): FailureView {
  return useMemo(
    () => ({
      setMessage,
      setFieldError: (key: string, text: string) => {
        const field = fields.find((f) => f === key);
        if (!field) return false;
        setError(field, { message: text });
        return true;
      },
      ...(clearSecrets && { clearSecrets }),
    }),
    [setMessage, setError, fields, clearSecrets],
  );
}
