import { cardResultResponseSchema } from '@sso/contracts/cards';
import { numberlessResponseSchema, upgradeRegisterResponseSchema } from '@sso/contracts/upgrade';
import { apiPost } from '../../lib/api-client.ts';
import type { CardValues } from '../../lib/use-card-form.ts';

/** An open member's card (SPEC.md section 7, "Authentication"; docs/decisions/0006 and 0016), JSON bodies. */

/** POST /api/auth/register (Bearer): the card; answers how its holder is checked (OtpSMS, OtpEmail or Pin). */
export const registerCard = (card: CardValues) =>
  apiPost('/api/auth/register', upgradeRegisterResponseSchema, {
    auth: true,
    json: { cardnumber: card.cardnumber, cc_month: card.cc_month, cc_year: card.cc_year, cvc: card.cvc },
    what: 'card register',
  });

const cardResult = (path: string, auth: boolean, json: Record<string, string>) =>
  apiPost(path, cardResultResponseSchema, { auth, json, what: 'card result' });

/** POST /api/auth/upgrade/sc (no Bearer: the register_token names the member): the code or the PIN; the card is linked. */
export const confirmCardCode = (registerToken: string, onetimePassword: string) =>
  cardResult('/api/auth/upgrade/sc', false, { register_token: registerToken, onetime_password: onetimePassword });
export const confirmCardPin = (registerToken: string, pin: string) => cardResult('/api/auth/upgrade/sc', false, { register_token: registerToken, pin });

/** POST /api/auth/numberless (Bearer): the holder's mobile; an SMS code goes there when it holds a numberless card. */
export const startNumberless = (tel: string) => apiPost('/api/auth/numberless', numberlessResponseSchema, { auth: true, json: { tel }, what: 'numberless' });

/** POST /api/auth/numberless/otp (Bearer): the SMS code; the numberless card is linked. */
export const confirmNumberless = (registerToken: string, onetimePassword: string) =>
  cardResult('/api/auth/numberless/otp', true, { register_token: registerToken, onetime_password: onetimePassword });
