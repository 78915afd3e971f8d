import { useState } from 'react';
import type { UseFormReturn } from 'react-hook-form';
import type { z } from 'zod';
import { profileFormSchema, type profileFieldsSchema, type ProfileFieldKey, type ProfileResponse } from '@sso/contracts/account';
import { japanDate } from '@sso/contracts/open-signup';
import { useMemberForm } from '../../lib/use-member-form.ts';
import type { ActionOutcome } from '../../lib/use-pending-action.ts';
import type { ProfileFields } from './account-change-api.ts';

type Schema = ReturnType<typeof profileFieldsSchema>;
export type ProfileInput = z.input<Schema>;
export type ProfileInputKey = keyof ProfileInput;
export type ProfileForm = UseFormReturn<ProfileInput, unknown, ProfileFields>;

/** The inputs a profile field key of SPEC.md section 3 stands for: a name key covers its family and given parts. */
const INPUTS_OF: Record<ProfileFieldKey, readonly ProfileInputKey[]> = {
  full_name: ['last_name', 'first_name'],
  full_name_kana: ['last_name_kana', 'first_name_kana'],
  sex: ['sex'],
  birthday: ['birthday'],
  tel: ['tel'],
  postal_code: ['postal_code'],
  email_flg: ['email_flg'],
};

const inputsOf = (key: string): readonly ProfileInputKey[] => {
  if (Object.hasOwn(INPUTS_OF, key)) return INPUTS_OF[key as ProfileFieldKey];
  // A server may also name an input itself (the contract's validation errors do).
  return Object.values(INPUTS_OF).flat().includes(key as ProfileInputKey) ? [key as ProfileInputKey] : [];
};

/** The profile field keys the member may not change (the answer's `readonly`) as the keys of their inputs. */
export const readonlyInputs = (readonly: readonly string[]): ReadonlySet<ProfileInputKey> => new Set(readonly.flatMap(inputsOf));

/** The input a server validation error is shown on: a name key's error goes under its family name. */
export const errorInput = (key: string): ProfileInputKey | undefined => inputsOf(key)[0];

/** The stored profile as the form's starting values; a sex that is not 1 or 2 starts unchosen. */
export function profileValues(p: ProfileResponse): ProfileInput {
  return {
    last_name: p.last_name,
    first_name: p.first_name,
    last_name_kana: p.last_name_kana,
    first_name_kana: p.first_name_kana,
    sex: (p.sex === '1' || p.sex === '2' ? p.sex : undefined) as ProfileInput['sex'],
    birthday: p.birthday,
    tel: p.tel,
    postal_code: p.postal_code,
    email_flg: p.email_flg,
  };
}

/**
 * The profile form (lib/use-member-form.ts), validated with the contract's rules for today's date in
 * Japan (the age rule depends on it) and the whole names' lengths, starting from the stored profile;
 * a server validation error goes on its input (errorInput). Read-only fields keep their stored
 * values, which are sent as they are. `check` is the input mode's submit.
 */
export function useProfileForm(profile: ProfileResponse, check: (values: ProfileFields) => Promise<ActionOutcome>) {
  const [schema] = useState(() => profileFormSchema(japanDate(Date.now())));
  return useMemberForm<ProfileInput, ProfileFields>({ schema, defaultValues: profileValues(profile), fields: errorInput, send: check });
}
