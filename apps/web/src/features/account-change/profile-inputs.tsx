import type { UseFormReturn } from 'react-hook-form';
import { formatBirthday, formatPostalCode, fullName, fullNameKana, newsletterLabel, sexLabel, SEX_OPTIONS } from '../../lib/profile-summary.ts';
import { Alert } from '../../ui/alert.tsx';
import { BackToTop } from '../../ui/back-to-top.tsx';
import { Button } from '../../ui/button.tsx';
import { Checkbox } from '../../ui/checkbox.tsx';
import { Field } from '../../ui/field.tsx';
import { FIELD_HINTS } from '../../ui/field-hints.ts';
import { FieldGroup } from '../../ui/field-group.tsx';
import { halfWidthOnBlur } from '../../ui/half-width-on-blur.ts';
import { RadioGroup } from '../../ui/radio-group.tsx';
import page from '../../ui/page.module.css';
import type { ProfileForm, ProfileInputKey } from './profile-form.ts';
import { ReadonlyValue } from './readonly-value.tsx';

interface ProfileInputsProps {
  form: ProfileForm;
  readonly: ReadonlySet<ProfileInputKey>;
  message: string | undefined;
  pending: boolean;
  onSubmit: ReturnType<UseFormReturn['handleSubmit']>;
}

/**
 * The input mode of the profile change (issue 5; SPEC.md sections 2 and 5): the open sign-up's
 * profile fields with its labels and rules; a read-only field shows its stored value as text.
 * Birthday, postal code and phone become half-width on blur.
 */
export function ProfileInputs({ form, readonly, message, pending, onSubmit }: ProfileInputsProps) {
  const { register, formState, getValues } = form;
  const errors = formState.errors;
  const v = getValues();
  const fixed = (key: ProfileInputKey) => readonly.has(key);
  return (
    <>
      <h1>プロフィール変更</h1>
      <p className={page.lead}>変更する項目を入力し、「確認する」を押してください。</p>
      <form noValidate onSubmit={onSubmit}>
        {fixed('last_name') ? (
          <ReadonlyValue label="お名前" value={fullName(v)} error={errors.last_name?.message} />
        ) : (
          <FieldGroup legend="お名前（全角）">
            <Field id="last_name" label="姓" type="text" autoComplete="family-name" error={errors.last_name?.message} {...register('last_name')} />
            <Field id="first_name" label="名" type="text" autoComplete="given-name" error={errors.first_name?.message} {...register('first_name')} />
          </FieldGroup>
        )}
        {fixed('last_name_kana') ? (
          <ReadonlyValue label="フリガナ" value={fullNameKana(v)} error={errors.last_name_kana?.message} />
        ) : (
          <FieldGroup legend="フリガナ（全角カタカナ）">
            <Field id="last_name_kana" label="セイ" type="text" error={errors.last_name_kana?.message} {...register('last_name_kana')} />
            <Field id="first_name_kana" label="メイ" type="text" error={errors.first_name_kana?.message} {...register('first_name_kana')} />
          </FieldGroup>
        )}
        {fixed('sex') ? (
          <ReadonlyValue label="性別" value={sexLabel(v.sex ?? '')} error={errors.sex?.message} />
        ) : (
          <RadioGroup id="sex" legend="性別" options={SEX_OPTIONS} error={errors.sex?.message} {...register('sex')} />
        )}
        {fixed('birthday') ? (
          <ReadonlyValue label="生年月日" value={formatBirthday(v.birthday)} error={errors.birthday?.message} />
        ) : (
          <Field
            id="birthday"
            label="生年月日"
            hint={FIELD_HINTS.birthday}
            type="text"
            inputMode="numeric"
            autoComplete="bday"
            error={errors.birthday?.message}
            {...halfWidthOnBlur(register('birthday'))}
          />
        )}
        {fixed('postal_code') ? (
          <ReadonlyValue label="郵便番号" value={formatPostalCode(v.postal_code)} error={errors.postal_code?.message} />
        ) : (
          <Field
            id="postal_code"
            label="郵便番号"
            hint={FIELD_HINTS.postalCode}
            type="text"
            inputMode="numeric"
            autoComplete="postal-code"
            error={errors.postal_code?.message}
            {...halfWidthOnBlur(register('postal_code'))}
          />
        )}
        {fixed('tel') ? (
          <ReadonlyValue label="電話番号" value={v.tel} error={errors.tel?.message} />
        ) : (
          <Field
            id="tel"
            label="電話番号"
            hint={FIELD_HINTS.tel}
            type="tel"
            autoComplete="tel-national"
            error={errors.tel?.message}
            {...halfWidthOnBlur(register('tel'))}
          />
        )}
        {fixed('email_flg') ? (
          <ReadonlyValue label="メールマガジン" value={newsletterLabel(v.email_flg)} error={errors.email_flg?.message} />
        ) : (
          <Checkbox
            id="email_flg"
            label="メールマガジンを受け取る"
            hint={FIELD_HINTS.newsletter}
            {...register('email_flg')}
          />
        )}
        <Alert message={message} />
        <div className={page.actions}>
          <Button type="submit" pending={pending}>
            確認する
          </Button>
          <BackToTop />
        </div>
      </form>
    </>
  );
}
