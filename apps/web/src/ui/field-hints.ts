import { PRODUCT_NAME } from '@sso/contracts/terms';

/** Hints under the fields that several forms share (sign-ups, password recovery, account changes), worded once. */
export const FIELD_HINTS = {
  birthday: '半角数字8桁で入力してください（例：20000101）。',
  postalCode: 'ハイフンを入れずに半角数字7桁で入力してください。',
  tel: 'ハイフンを入れずに半角数字10桁または11桁で入力してください。',
  newsletter: `${PRODUCT_NAME}からのお知らせやキャンペーン情報をメールでお届けします。`,
  /** The card sign-up's rules of SPEC.md section 5 (8-16, letters and digits, - = @ _). */
  cardPassword: '8～16文字の半角英字と数字を組み合わせてください。記号は - = @ _ が使えます。',
  /** The open rules of SPEC.md section 5 (8-72, letters and digits, the listed symbols). */
  openPassword: '8～72文字の半角英字と数字を組み合わせてください。記号は - = @ _ ! # + * が使えます。',
} as const;
