import type { UseFormReturn } from 'react-hook-form';
import { formatBirthday, formatPostalCode, fullName, fullNameKana, newsletterLabel, sexLabel } from '../../lib/profile-summary.ts';
import { Alert } from '../../ui/alert.tsx';
import { BackToTop } from '../../ui/back-to-top.tsx';
import { Button } from '../../ui/button.tsx';
import { Checkbox } from '../../ui/checkbox.tsx';
import page from '../../ui/page.module.css';
import { ProfileFields, type ProfileShownField } from '../../ui/profile-fields.tsx';
import { ReadonlyValue } from '../../ui/readonly-value.tsx';
import { FIELD_HINTS } from '../../ui/field-hints.ts';
import type { ProfileForm, ProfileInput, ProfileInputKey } from './profile-form.ts';

/** The stored value of each read-only field, as the member reads it. */
const READONLY_TEXT: Record<ProfileShownField, (v: ProfileInput) => string> = {
  last_name: fullName,
  last_name_kana: fullNameKana,
  sex: (v) => sexLabel(v.sex ?? ''),
  birthday: (v) => formatBirthday(v.birthday),
  postal_code: (v) => formatPostalCode(v.postal_code),
  tel: (v) => v.tel,
};

interface ProfileInputsProps {
  form: ProfileForm;
  readonly: ReadonlySet<ProfileInputKey>;
  message: string | undefined;
  pending: boolean;
  onSubmit: ReturnType<UseFormReturn['handleSubmit']>;
}

/**
 * The input mode of the profile change (SPEC.md sections 2 and 5): the open sign-up's
 * profile fields with its labels and rules; a read-only field shows its stored value as text.
 * Each field is normalised on blur (ui/field.tsx).
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
        <ProfileFields register={register} errors={errors} readonlyValue={(name) => (fixed(name) ? READONLY_TEXT[name](v) : undefined)} />
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
