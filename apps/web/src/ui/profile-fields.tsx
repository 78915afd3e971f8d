import type { UseFormRegisterReturn } from 'react-hook-form';
import { LINKS } from '../lib/links.ts';
import { SEX_OPTIONS } from '../lib/profile-summary.ts';
import { Field } from './field.tsx';
import page from './page.module.css';
import { FIELD_HINTS } from './field-hints.ts';
import { FieldGroup } from './field-group.tsx';
import { RadioGroup } from './radio-group.tsx';
import { ReadonlyValue } from './readonly-value.tsx';

export type ProfileFieldName = 'last_name' | 'first_name' | 'last_name_kana' | 'first_name_kana' | 'sex' | 'birthday' | 'postal_code' | 'tel';
/** A name group is read-only as a whole: it is named by its family-name input. */
export type ProfileShownField = Exclude<ProfileFieldName, 'first_name' | 'first_name_kana'>;

/** The whole names' keys (SPEC.md section 3): family and given name at most 19 characters together (section 5). */
export type WholeNameKey = 'full_name' | 'full_name_kana';

interface ProfileFieldsProps {
  // A method, so that react-hook-form's register fits: a name's parts re-check the whole name (`deps`) when they change.
  register(name: ProfileFieldName, options?: { deps?: string | string[] }): UseFormRegisterReturn;
  errors: Partial<Record<ProfileFieldName | WholeNameKey, { message?: string | undefined }>>;
  /** The stored text of a field the member may not change; undefined where the field is editable. */
  readonlyValue?: (name: ProfileShownField) => string | undefined;
  /** The fields to show when not all of them: the open-account link asks for the kana names, birthday and phone (decision 0006). */
  only?: readonly ProfileShownField[];
}

/**
 * The profile fields of the open sign-up and the profile change (SPEC.md sections 2 and 5): name,
 * name in katakana, sex, birthday, postal code and phone, with one set of labels and hints. Each
 * field is normalised on blur (ui/field.tsx: kana to katakana, digits without hyphens or slashes);
 * a read-only field shows its stored value as text.
 */
export function ProfileFields({ register, errors, readonlyValue = () => undefined, only }: ProfileFieldsProps) {
  const fixed = (name: ProfileShownField, label: string) => {
    // false, not undefined: a field left out renders nothing, neither as text nor as an input.
    if (only && !only.includes(name)) return false;
    const value = readonlyValue(name);
    return value === undefined ? undefined : <ReadonlyValue label={label} value={value} error={errors[name]?.message} />;
  };
  return (
    <>
      {fixed('last_name', 'お名前') ?? (
        <FieldGroup legend="お名前（全角）" id="full_name" error={errors.full_name?.message}>
          <Field id="last_name" label="姓" type="text" autoComplete="family-name" error={errors.last_name?.message} {...register('last_name', { deps: 'full_name' })} />
          <Field id="first_name" label="名" type="text" autoComplete="given-name" error={errors.first_name?.message} {...register('first_name', { deps: 'full_name' })} />
        </FieldGroup>
      )}
      {fixed('last_name_kana', 'フリガナ') ?? (
        <FieldGroup legend="フリガナ（全角カタカナ）" id="full_name_kana" error={errors.full_name_kana?.message}>
          <Field id="last_name_kana" label="セイ" type="text" error={errors.last_name_kana?.message} {...register('last_name_kana', { deps: 'full_name_kana' })} />
          <Field id="first_name_kana" label="メイ" type="text" error={errors.first_name_kana?.message} {...register('first_name_kana', { deps: 'full_name_kana' })} />
        </FieldGroup>
      )}
      {fixed('sex', '性別') ?? <RadioGroup id="sex" legend="性別" options={SEX_OPTIONS} error={errors.sex?.message} {...register('sex')} />}
      {fixed('birthday', '生年月日') ?? (
        <Field
          id="birthday"
          label="生年月日"
          hint={FIELD_HINTS.birthday}
          type="text"
          inputMode="numeric"
          autoComplete="bday"
          error={errors.birthday?.message}
          {...register('birthday')}
        />
      )}
      {fixed('postal_code', '郵便番号') ?? (
        <Field
          id="postal_code"
          label="郵便番号"
          hint={FIELD_HINTS.postalCode}
          type="text"
          inputMode="numeric"
          autoComplete="postal-code"
          error={errors.postal_code?.message}
          {...register('postal_code')}
        />
      )}
      {/* Postal-code search (SPEC.md section 9), for a member who does not know the code. */}
      {fixed('postal_code', '郵便番号') === undefined && (
        <p className={page.help}>
          <a href={LINKS.postalCodeSearch} target="_blank" rel="noopener noreferrer">
            郵便番号を調べる
          </a>
        </p>
      )}
      {fixed('tel', '電話番号') ?? (
        <Field
          id="tel"
          label="電話番号"
          hint={FIELD_HINTS.tel}
          type="tel"
          inputMode="numeric"
          autoComplete="tel-national"
          error={errors.tel?.message}
          {...register('tel')}
        />
      )}
    </>
  );
}
