import type { OpenSignupFields } from './open-signup-api.ts';

/** The sexes of SPEC.md section 3 ("Sex values: 1 male, 2 female"), as the input mode's radios offer them. */
export const SEX_OPTIONS = [
  { value: '1', label: '男性' },
  { value: '2', label: '女性' },
] as const;

/** The password is never shown: a fixed mask, whatever its length. */
export const PASSWORD_MASK = '●●●●●●●●';

/** Family and given name are separated by an ideographic (full-width) space, as Japanese forms write them. */
const NAME_SEPARATOR = '\u3000';

export interface SummaryRow {
  label: string;
  value: string;
}

/** YYYYMMDD as a Japanese date: 20000101 -> 2000年1月1日. */
export const formatBirthday = (yyyymmdd: string) =>
  `${yyyymmdd.slice(0, 4)}年${Number(yyyymmdd.slice(4, 6))}月${Number(yyyymmdd.slice(6, 8))}日`;

/** 7 digits with the customary hyphen: 1000001 -> 100-0001. */
export const formatPostalCode = (code: string) => `${code.slice(0, 3)}-${code.slice(3)}`;

/**
 * The confirm mode's summary (SPEC.md section 2, "Open sign-up"): every field of the input mode in
 * its order, the names family first, the password masked.
 */
export function confirmSummary(v: OpenSignupFields): SummaryRow[] {
  return [
    { label: 'メールアドレス', value: v.email },
    { label: 'お名前', value: `${v.last_name}${NAME_SEPARATOR}${v.first_name}` },
    { label: 'フリガナ', value: `${v.last_name_kana}${NAME_SEPARATOR}${v.first_name_kana}` },
    { label: '性別', value: SEX_OPTIONS.find((o) => o.value === v.sex)?.label ?? '' },
    { label: '生年月日', value: formatBirthday(v.birthday) },
    { label: '郵便番号', value: formatPostalCode(v.postal_code) },
    { label: '電話番号', value: v.tel },
    { label: 'パスワード', value: PASSWORD_MASK },
    { label: 'メールマガジン', value: v.email_flg ? '受け取る' : '受け取らない' },
    { label: '利用規約', value: v.check ? '同意する' : '' },
  ];
}
