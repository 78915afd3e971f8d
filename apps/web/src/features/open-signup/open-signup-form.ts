import { useState } from 'react';
import type { UseFormReturn } from 'react-hook-form';
import type { z } from 'zod';
import { PASSWORD_FIELDS, passwordConfirmRule, whenStrings } from '@sso/contracts/fields';
import { FULL_NAME_WHEN, fullNameRule } from '@sso/contracts/full-name';
import { japanDate, openSignupFieldsSchema } from '@sso/contracts/open-signup';
import { newsletterDefault } from '../../lib/env.ts';
import { useMemberForm } from '../../lib/use-member-form.ts';
import type { ActionOutcome } from '../../lib/use-pending-action.ts';
import type { OpenSignupFields } from './open-signup-api.ts';

/**
 * The input mode's rules: the contract's fields for today's date in Japan (the age rule depends on
 * it), with the confirmation and whole-name rules shown together with the other errors.
 */
export const openSignupFormSchema = (today: string) =>
  openSignupFieldsSchema(today).superRefine(passwordConfirmRule, whenStrings(PASSWORD_FIELDS)).superRefine(fullNameRule, FULL_NAME_WHEN);

type Schema = ReturnType<typeof openSignupFormSchema>;
export type OpenSignupInput = z.input<Schema>;
export type OpenSignupForm = UseFormReturn<OpenSignupInput, unknown, OpenSignupFields>;

/**
 * The form of the open sign-up (lib/use-member-form.ts), with its schema, which the confirm mode
 * reads. `check` is the input mode's submit.
 */
export function useOpenSignupForm(check: (values: OpenSignupFields) => Promise<ActionOutcome>) {
  const [schema] = useState(() => openSignupFormSchema(japanDate(Date.now())));
  // The fields a server validation error may name (SPEC.md section 5: matched by name), and the whole
  // names: the server keys their length errors full_name and full_name_kana (SPEC.md section 3).
  const [fields] = useState(() => [...Object.keys(schema.shape), 'full_name', 'full_name_kana']);
  const parts = useMemberForm<OpenSignupInput, OpenSignupFields>({
    schema,
    fields,
    send: check,
    defaultValues: {
      email: '',
      last_name: '',
      first_name: '',
      last_name_kana: '',
      first_name_kana: '',
      birthday: '',
      postal_code: '',
      tel: '',
      password: '',
      password_check: '',
      email_flg: newsletterDefault(),
    },
  });
  return { schema, ...parts };
}
