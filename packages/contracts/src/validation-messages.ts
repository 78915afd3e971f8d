import { REQUIRED_MESSAGE } from './messages.ts';

/*
 * The forms' validation messages, beside messages.ts rather than in it: the SPA's entry holds
 * messages.ts whole, so what is there weighs on the login route's JavaScript
 * (bench/lib/spa-size.ts), and the login form needs only REQUIRED_MESSAGE; these load with the
 * forms that check them.
 */

/** Field validation messages (SPEC.md section 5), word for word. */
export const VALIDATION_MESSAGES = {
  required: REQUIRED_MESSAGE,
  digits: 'すべて半角数字で入力してください',
  sex: '性別を選択してください',
  birthdayLength: '8桁で入力してください',
  birthdayDate: '正しい日付を入力してください',
  ascii: '半角英数字で入力してください',
  passwordConfirm: 'パスワード欄と同じ値を入力してください',
  /** The messages below are not worded by SPEC.md ("Local validation messages beyond those listed are not shown"). */
  email: 'メールアドレスを正しく入力してください',
  cardPassword: '8～16文字の半角英字と数字を組み合わせて入力してください（記号は - = @ _ が使えます）',
  openPassword: '8～72文字の半角英字と数字を組み合わせて入力してください（記号は - = @ _ ! # + * が使えます）',
  cardPrefix: '当社発行のカードのみご登録いただけます',
  cardNumber: 'カード番号を正しく入力してください',
  cardMonth: '有効期限（月）を選択してください',
  cardYear: '有効期限（年）を選択してください',
  cvc: 'セキュリティコードを3桁または4桁で入力してください',
  agreement: '内容をご確認のうえ、チェックを入れてください',
  otp: 'ワンタイムパスワードを6桁の半角数字で入力してください',
  pin: '暗証番号を4桁の半角数字で入力してください',
  bankAccount: '口座番号の下4桁を半角数字で入力してください',
  fullWidth: '全角で入力してください',
  katakana: '全角カタカナで入力してください',
  fullNameLength: 'お名前は姓と名をあわせて19文字以内で入力してください',
  fullNameKanaLength: 'フリガナはセイとメイをあわせて19文字以内で入力してください',
  minimumAge: '12歳以上の方がご登録いただけます',
  tel: '10桁または11桁の半角数字で入力してください（ハイフン不要）',
  postalCode: '7桁の半角数字で入力してください（ハイフン不要）',
  emailFlag: 'メールマガジンの受け取りを選択してください',
  activationKey: '認証キーを6桁の半角数字で入力してください',
  cardSelect: 'カードを選択してください',
} as const;

/**
 * Over-length input (SPEC.md section 5 gives no words for it, so these are written in the style of its
 * messages): a text field's bound in characters, a digits field's in digits.
 */
export const tooLong = (max: number) => `${max}文字以内で入力してください`;
export const tooManyDigits = (max: number) => `${max}桁以内で入力してください`;
