/**
 * Forgiving input (SPEC.md section 5, "Input conversion on blur", widened to every text field;
 * docs/decisions/0018): what a member types is brought to the form the rules of section 5 check
 * before they check it, on blur (ui/field.tsx) and again on submit (lib/normalised-resolver.ts).
 * Kept free of zod and of the contracts: the login form uses it, and the login route's JavaScript
 * stays without a form library (bench/lib/spa-size.ts measures it).
 */

/**
 * - verbatim: passwords, compared byte for byte by the server; normalising them would make a
 *   password typed one way differ from the same password stored another way.
 * - text: NFKC (full-width letters, digits and symbols to half-width, half-width katakana to full-width).
 * - name: a name in kanji, full-width only (section 5): not NFKC, which would make full-width letters
 *   half-width (then refused) and swap a compatibility ideograph of a family name (神, 﨑's kin) for
 *   its unified form; half-width katakana and ASCII become their full-width forms instead.
 * - kana: NFKC, then hiragana to katakana (section 5: kana names are katakana only).
 * - digits: NFKC, then hyphens and their look-alikes, slashes and spaces removed (section 5: tel and
 *   postal code are digits without hyphens; a card number is digits only).
 * - birthday: as digits, and a date written with separators (1990/1/1) gets its month and day padded.
 * - loginId: NFKC and trimmed; a mobile number (no @) loses its hyphens and spaces as a digits field does.
 */
export type InputKind = 'verbatim' | 'text' | 'name' | 'kana' | 'digits' | 'birthday' | 'loginId';

/**
 * The kind of each field name the forms use (the contracts' keys). A name not listed is 'text' in
 * an input that is not type=password (ui/field.tsx) and left as typed by the submit-time pass,
 * which knows names only: a password field under a new name is never normalised by mistake.
 */
const KIND_OF_NAME: Readonly<Record<string, InputKind>> = {
  password: 'verbatim',
  password_check: 'verbatim',
  current_password: 'verbatim',
  user_pass: 'verbatim',
  na_password: 'verbatim',
  email: 'text',
  username: 'text',
  na_id: 'text',
  user_mail: 'loginId',
  last_name: 'name',
  first_name: 'name',
  last_name_kana: 'kana',
  first_name_kana: 'kana',
  birthday: 'birthday',
  tel: 'digits',
  postal_code: 'digits',
  cardnumber: 'digits',
  cvc: 'digits',
  activation_key: 'digits',
  onetime_password: 'digits',
  otp_email: 'digits',
  pin: 'digits',
  a_no: 'digits',
};

/** The kind of an input by its name, and its type where known (an input; not the submit-time pass). */
export function inputKindOf(name: string | undefined, type?: string): InputKind {
  const listed = name === undefined ? undefined : KIND_OF_NAME[name];
  if (listed) return listed;
  if (type === undefined) return 'verbatim';
  return type === 'password' ? 'verbatim' : 'text';
}

/** Hyphens, dashes, minus signs and the long vowel mark (ー, typed for a hyphen between digits) as NFKC leaves them. */
const DASHES = '\\-\u2010-\u2015\u2043\u2212\u30FC';
/** What separates the groups of a number: dashes, slashes, dots of a date, spaces. */
const SEPARATORS = new RegExp(`[${DASHES}/\\s]+`, 'g');
/** A mobile number as typed: digits with the separators of a phone number, nothing else. */
const PHONE_LIKE = new RegExp(`^[\\d${DASHES}\\s]+$`);
/** A date with separators: year, month and day, or the same with 年, 月 and 日. */
const SEPARATED_DATE = new RegExp(`^(\\d{4})(?:[${DASHES}/.\\s]+|年)(\\d{1,2})(?:[${DASHES}/.\\s]+|月)(\\d{1,2})日?$`);

const HIRAGANA = /[\u3041-\u3096\u309D\u309E]/g;
const HALF_WIDTH_KATAKANA = /[\uFF61-\uFF9F]+/g;
const HALF_WIDTH_ASCII = /[\x21-\x7E]/g;

/** ぁ-ゖ and ゝゞ sit 0x60 below their katakana in Unicode. */
export const hiraganaToKatakana = (s: string) => s.replace(HIRAGANA, (c) => String.fromCharCode(c.charCodeAt(0) + 0x60));

const toFullWidth = (s: string) =>
  s
    .replace(HALF_WIDTH_KATAKANA, (run) => run.normalize('NFKC'))
    .replace(HALF_WIDTH_ASCII, (c) => String.fromCharCode(c.charCodeAt(0) + 0xfee0))
    .replace(/ /g, '\u3000');

const digits = (s: string) => s.normalize('NFKC').replace(SEPARATORS, '');

function birthday(s: string): string {
  const t = s.normalize('NFKC').trim();
  const date = SEPARATED_DATE.exec(t);
  if (date) return `${date[1]}${date[2]?.padStart(2, '0')}${date[3]?.padStart(2, '0')}`;
  return digits(t);
}

function loginId(s: string): string {
  const t = s.normalize('NFKC').trim();
  return PHONE_LIKE.test(t) ? t.replace(SEPARATORS, '') : t;
}

const NORMALISE: Record<InputKind, (s: string) => string> = {
  verbatim: (s) => s,
  text: (s) => s.normalize('NFKC'),
  name: toFullWidth,
  kana: (s) => hiraganaToKatakana(s.normalize('NFKC')),
  digits,
  birthday,
  loginId,
};

/** The value of an input of `kind` as the rules check it. */
export const normaliseInput = (kind: InputKind, value: string) => NORMALISE[kind](value);

/** A form's values with each text field normalised by its name; other values as they are. */
export function normaliseFields<T extends Record<string, unknown>>(values: T): T {
  const out: Record<string, unknown> = { ...values };
  for (const [name, value] of Object.entries(values)) {
    if (typeof value === 'string') out[name] = normaliseInput(inputKindOf(name), value);
  }
  return out as T;
}
