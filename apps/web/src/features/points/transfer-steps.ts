/** The steps of the point transfer (SPEC.md section 2): the summary, the card, the one-time password, the finish. */
export const TRANSFER_STEPS = ['ポイント', 'カード選択', '本人確認', '完了'] as const;
