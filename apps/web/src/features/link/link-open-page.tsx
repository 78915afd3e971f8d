import { useCallback, useState } from 'react';
import { useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { japanDate } from '@sso/contracts/open-signup';
import { linkOpenRequestSchema, type LinkOpenRequest } from '@sso/contracts/points';
import { RESULT } from '@sso/contracts/result-codes';
import { ApiFailure } from '../../lib/api-client.ts';
import { showFailure, type FailureView } from '../../lib/failure-view.ts';
import { POINT_INFO_KEY } from '../../lib/point-info.ts';
import { useMemberForm } from '../../lib/use-member-form.ts';
import { Alert } from '../../ui/alert.tsx';
import { TopButton } from '../../ui/back-to-top.tsx';
import { Button } from '../../ui/button.tsx';
import { Field } from '../../ui/field.tsx';
import page from '../../ui/page.module.css';
import { ProfileFields } from '../../ui/profile-fields.tsx';
import type { ActionOutcome } from '../../lib/use-pending-action.ts';
import { linkOpenAccount } from './link-api.ts';

const FIELDS = ['email', 'last_name_kana', 'first_name_kana', 'birthday', 'tel', 'password'] as const;
/** The profile inputs the link compares, labelled and converted as on the profile forms. */
const LINK_PROFILE_FIELDS = ['last_name_kana', 'birthday', 'tel'] as const;
type LinkProfileField = Exclude<(typeof FIELDS)[number], 'email' | 'password'>;
/** The keys a server validation error may name: the fields, and the kana name as a whole (SPEC.md section 3, full_name_kana). */
const ERROR_KEYS = [...FIELDS, 'full_name_kana'];

/** Only card members link (300): said here, not as an error page. */
function showLinkFailure(e: unknown, view: FailureView) {
  if (e instanceof ApiFailure && e.status === 400 && e.result.result_code === RESULT.ACCESS_DENIED) view.setMessage(e.result.result_message);
  else showFailure(e, view);
}

/**
 * Open-account link (SPEC.md sections 1 and 2, /link/open; decisions 0006 and 0014): a card member
 * names their open account by its e-mail, kana names, birthday and phone, and proves that it is
 * theirs with its password, validated with the contract's rules (the birthday's depend on today in
 * Japan). A mismatch (902) or the lock (203) is shown on
 * the page, as is the refusal of an open member (300). On success the open points are the ID's.
 */
export function LinkOpenPage() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [schema] = useState(() => linkOpenRequestSchema(japanDate(Date.now())));

  const send = useCallback(
    async (form: LinkOpenRequest): Promise<ActionOutcome> => {
      await linkOpenAccount(form);
      await queryClient.invalidateQueries({ queryKey: POINT_INFO_KEY });
      void navigate('/link/open/done', { replace: true });
      return 'leaving';
    },
    [navigate, queryClient],
  );
  const { form, message, pending, onSubmit } = useMemberForm({
    schema,
    defaultValues: { email: '', last_name_kana: '', first_name_kana: '', birthday: '', tel: '', password: '' },
    fields: ERROR_KEYS,
    send,
    onFailure: showLinkFailure,
  });
  const { register, formState } = form;
  const errors = formState.errors;

  return (
    <>
      <h1>オープン会員情報の連携</h1>
      <p className={page.lead}>
        オープン会員としてご登録の情報とオープン会員のパスワードを入力し、「連携する」を押してください。オープン会員のポイントがこのメンバーIDに引き継がれます。
      </p>
      <p className={`${page.lead} ${page.emphasis}`}>連携後は、オープン会員のメールアドレスとパスワードではログインできなくなります。</p>
      <form noValidate onSubmit={onSubmit}>
        <Field
          id="email"
          label="メールアドレス"
          hint="オープン会員としてご登録のメールアドレスを入力してください。"
          type="text"
          inputMode="email"
          autoComplete="off"
          error={errors.email?.message}
          {...register('email')}
        />
        <ProfileFields only={LINK_PROFILE_FIELDS} register={(name, options) => register(name as LinkProfileField, options as { deps?: LinkProfileField })} errors={errors} />
        <Field
          id="password"
          label="オープン会員のパスワード"
          hint="ご本人確認のため、オープン会員としてご登録のパスワードを入力してください。"
          type="password"
          autoComplete="off"
          error={errors.password?.message}
          {...register('password')}
        />
        <Alert message={message} />
        <div className={page.actions}>
          <Button type="submit" pending={pending}>
            連携する
          </Button>
          <TopButton />
        </div>
      </form>
    </>
  );
}
