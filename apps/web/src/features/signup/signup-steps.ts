/** The steps of the card sign-up (SPEC.md section 4): the card, the SMS code or PIN, the e-mail code, the terms. */
export const CARD_SIGNUP_STEPS = ['カード情報', '本人確認', 'メール確認', '利用規約'] as const;
