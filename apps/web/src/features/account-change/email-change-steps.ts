/** The steps of the e-mail change (SPEC.md section 2): the new address, its one-time password, the finish. */
export const EMAIL_CHANGE_STEPS = ['メールアドレス', '確認コード', '完了'] as const;
