/** The profile fields as a summary shows them (SPEC.md sections 2 and 3): the open sign-up's confirm mode and the profile change's. */

/** The sexes of SPEC.md section 3 ("Sex values: 1 male, 2 female"), as the input mode's radios offer them. */
export const SEX_OPTIONS = [
  { value: '1', label: '男性' },
  { value: '2', label: '女性' },
] as const;

/** A password is never shown: a fixed mask, whatever its length. */
export const PASSWORD_MASK = '●●●●●●●●';

/** Family and given name are separated by an ideographic (full-width) space, as Japanese forms write them. */
const NAME_SEPARATOR = '\u3000';

export interface SummaryRow {
  label: string;
  value: string;
}

/** The profile part of a member's fields: names, sex, birthday, postal code, phone and the newsletter flag. */
export interface ProfileValues {
  last_name: string;
  first_name: string;
  last_name_kana: string;
  first_name_kana: string;
  sex: string;
  birthday: string;
  postal_code: string;
  tel: string;
  email_flg: boolean;
}

/** YYYYMMDD as a Japanese date: 20000101 -> 2000年1月1日. */
export const formatBirthday = (yyyymmdd: string) =>
  `${yyyymmdd.slice(0, 4)}年${Number(yyyymmdd.slice(4, 6))}月${Number(yyyymmdd.slice(6, 8))}日`;

/** 7 digits with the customary hyphen: 1000001 -> 100-0001. */
export const formatPostalCode = (code: string) => `${code.slice(0, 3)}-${code.slice(3)}`;

export const fullName = (v: Pick<ProfileValues, 'last_name' | 'first_name'>) => `${v.last_name}${NAME_SEPARATOR}${v.first_name}`;
export const fullNameKana = (v: Pick<ProfileValues, 'last_name_kana' | 'first_name_kana'>) =>
  `${v.last_name_kana}${NAME_SEPARATOR}${v.first_name_kana}`;
export const sexLabel = (sex: string) => SEX_OPTIONS.find((o) => o.value === sex)?.label ?? '';
export const newsletterLabel = (on: boolean) => (on ? '受け取る' : '受け取らない');

/** The personal rows in input order, the names family first: name, kana, sex, birthday, postal code, phone. */
export const personalRows = (v: ProfileValues): SummaryRow[] => [
  { label: 'お名前', value: fullName(v) },
  { label: 'フリガナ', value: fullNameKana(v) },
  { label: '性別', value: sexLabel(v.sex) },
  { label: '生年月日', value: formatBirthday(v.birthday) },
  { label: '郵便番号', value: formatPostalCode(v.postal_code) },
  { label: '電話番号', value: v.tel },
];

export const newsletterRow = (v: Pick<ProfileValues, 'email_flg'>): SummaryRow => ({ label: 'メールマガジン', value: newsletterLabel(v.email_flg) });
