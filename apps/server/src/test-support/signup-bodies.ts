import { WEB_SCOPE } from '@sso/contracts/scopes';
import { CHALLENGE, WEB_REDIRECT } from './test-app-core.ts';

/**
 * Valid sign-up requests (SPEC.md section 3) as the tests send them, in process or over HTTP: the
 * card sign-up's demo cards and body, and the open sign-up's body.
 */

/** The demo cards of config/demo-cards.json (docs/demo.md "Demo cards"). */
export const CARDS = {
  sms: { cardnumber: '4541000000000001', cvc: '123', mobile: '09011110001' },
  mail: { cardnumber: '5252000000000002', cvc: '123' },
  pin: { cardnumber: '3528000000000003', cvc: '123', pin: '1234' },
  pinBank: { cardnumber: '3777000000000004', cvc: '1234', pin: '1234', aNo: '5678' },
  house: { cardnumber: '0200000000000005', cvc: '', mobile: '09011110005' },
  info: { cardnumber: '4541000000000903', cvc: '123' },
  chatbot: { cardnumber: '4541000000000904', cvc: '123' },
} as const;

export const PASSWORD = 'Signup-2030';
/** The authorize parameters the test sign-ups carry, which every step answer echoes. */
export const AUTHORIZE_PARAMS = {
  response_type: 'code',
  client_id: 'SIAP009',
  redirect_uri: WEB_REDIRECT,
  scope: WEB_SCOPE,
  state: 'signup-state',
  code_challenge: CHALLENGE,
  code_challenge_method: 'S256',
};

export const cardBody = (card: { cardnumber: string; cvc: string }, email: string, over: Record<string, unknown> = {}) => ({
  cardnumber: card.cardnumber,
  cc_month: '12',
  cc_year: '2030',
  cvc: card.cvc,
  username: email,
  password: PASSWORD,
  password_check: PASSWORD,
  check: true,
  ...AUTHORIZE_PARAMS,
  recaptcha_token: 'dev-token',
  ...over,
});

export const OPEN_PASSWORD = 'Open-pass1';
let serial = 0;
/** A fresh e-mail address and mobile number for each sign-up, so that mails, limits and unique numbers never mix. */
export const newOpenEmail = () => `open.member.${++serial}@example.com`;
export const newTel = () => `080${String(10_000_000 + ++serial).slice(-8)}`;

/** A valid open sign-up (SPEC.md section 3, "Open sign-up"), registering for real unless told otherwise. */
export const openBody = (email: string, over: Record<string, unknown> = {}) => ({
  email,
  last_name: '山田',
  first_name: '太郎',
  last_name_kana: 'ヤマダ',
  first_name_kana: 'タロウ',
  sex: '1',
  birthday: '20000101',
  postal_code: '1700013',
  tel: newTel(),
  password: OPEN_PASSWORD,
  password_check: OPEN_PASSWORD,
  email_flg: true,
  check: true,
  dry_run: 0,
  client_id: 'SIAP009',
  ...over,
});


/**
 * The card step of a sign-up started from a pushed request (RFC 9126 section 4): the page's URL, and
 * so the body, carries client_id and request_uri, none of the other authorize parameters.
 */
export function pushedCardBody(card: { cardnumber: string; cvc: string }, email: string, clientId: string, requestUri: string): Record<string, unknown> {
  const body: Record<string, unknown> = cardBody(card, email, { client_id: clientId, request_uri: requestUri });
  for (const key of Object.keys(AUTHORIZE_PARAMS)) if (key !== 'client_id') delete body[key];
  return body;
}
