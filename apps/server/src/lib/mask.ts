/**
 * A number shown back to the member, as the card master masks a holder's mobile (090-****-0301).
 * The numberless answer masks the number entered, so that it is the same whether or not a card
 * was found.
 */
export const maskTel = (tel: string) => `${tel.slice(0, 3)}-****-${tel.slice(-4)}`;

/** An address shown back to the member: its first character and its domain (d***@example.com). */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  return at < 1 ? '***' : `${email[0]}***${email.slice(at)}`;
}

/**
 * Personal data as an operator first sees it (modules/support/): a name's first character, a date's
 * year, a postal code's first three digits; the rest is revealed field by field, each reveal audited.
 */
export const maskName = (name: string) => (name.length === 0 ? '' : `${[...name][0]}${'＊'.repeat(Math.max(1, [...name].length - 1))}`);
export const maskBirthday = (yyyymmdd: string) => `${yyyymmdd.slice(0, 4)}****`;
export const maskPostalCode = (code: string) => `${code.slice(0, 3)}****`;
