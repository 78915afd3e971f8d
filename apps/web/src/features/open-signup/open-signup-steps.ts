/** The steps of the open sign-up (SPEC.md section 4): input, the dry-run confirm, the mail sent, the finish. */
export const OPEN_SIGNUP_STEPS = ['入力', '確認', 'メール送信', '完了'] as const;
