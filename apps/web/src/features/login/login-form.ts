import { useCallback, useState, type FormEvent } from 'react';
import { REQUIRED_MESSAGE } from '@sso/contracts/messages';
import { inputKindOf, normaliseInput } from '../../lib/input-normalise.ts';

export interface LoginForm {
  user_mail: string;
  user_pass: string;
}
type Name = keyof LoginForm;

/** In the order a submit with errors looks for the one to focus. */
const NAMES: readonly Name[] = ['user_mail', 'user_pass'];

/**
 * Login validation (SPEC.md section 5): id and password are required. Each is read as its field's
 * kind (lib/input-normalise.ts): the id as on blur (NFKC, trimmed, a mobile number without hyphens),
 * the password byte for byte.
 */
const valueOf = (name: Name, raw: string) => normaliseInput(inputKindOf(name), raw);
const errorOf = (value: string) => (value ? undefined : REQUIRED_MESSAGE);

/**
 * The login form without a form library (docs/performance.md: react-hook-form and zod stay out of
 * the login route's JavaScript), validating as the other forms do: a field when it loses focus, and
 * once the form was submitted, on every change. A submit with errors focuses the first instead of
 * sending.
 */
export function useLoginForm() {
  const [errors, setErrors] = useState<Partial<Record<Name, string>>>({});
  const [submitted, setSubmitted] = useState(false);
  const setError = useCallback((name: Name, message: string | undefined) => setErrors((e) => ({ ...e, [name]: message })), []);

  const check = ({ currentTarget: input }: { currentTarget: HTMLInputElement }) => {
    const name = input.name as Name;
    setError(name, errorOf(valueOf(name, input.value)));
  };
  /** The props of a field's input: its name, shown error and validation events. */
  const field = (name: Name) => ({ name, error: errors[name], onBlur: submitted ? undefined : check, onChange: submitted ? check : undefined });

  /** The form's submit handler: `onValid` gets the values once they pass, else `onInvalid` is called. */
  const handleSubmit = (onValid: (form: LoginForm) => Promise<void>, onInvalid: () => void) => (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    setSubmitted(true);
    const input = (name: Name) => e.currentTarget.elements.namedItem(name) as HTMLInputElement;
    const form = { user_mail: valueOf('user_mail', input('user_mail').value), user_pass: valueOf('user_pass', input('user_pass').value) };
    const found = { user_mail: errorOf(form.user_mail), user_pass: errorOf(form.user_pass) };
    setErrors(found);
    const invalid = NAMES.find((name) => found[name]);
    if (invalid) {
      input(invalid).focus();
      onInvalid();
    } else void onValid(form);
  };

  return { field, handleSubmit, setError };
}
