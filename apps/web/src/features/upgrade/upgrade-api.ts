import { cardResultResponseSchema } from '@sso/contracts/cards';
import { numberlessResponseSchema, upgradeRegisterResponseSchema } from '@sso/contracts/upgrade';
import { apiPost } from '../../lib/api-client.ts';
import { checkShape } from '../../lib/shape.ts';
import type { CardValues } from '../../lib/use-card-form.ts';

/** An open member's card (SPEC.md section 7, "Authentication"; docs/decisions/0006 and 0016), JSON bodies. */

/** POST /api/auth/register (Bearer): the card; answers how its holder is checked (OtpSMS, OtpEmail or Pin). */
export const registerCard = async (card: CardValues) =>
  checkShape(
    upgradeRegisterResponseSchema,
    await apiPost<unknown>('/api/auth/register', {
      auth: true,
      json: { cardnumber: card.cardnumber, cc_month: card.cc_month, cc_year: card.cc_year, cvc: card.cvc },
    }),
    'card register',
  );

const cardResult = async (path: string, auth: boolean, json: Record<string, string>) =>
  checkShape(cardResultResponseSchema, await apiPost<unknown>(path, { auth, json }), 'card result');

/** POST /api/auth/upgrade/sc (no Bearer: the register_token names the member): the code or the PIN; the card is linked. */
export const confirmCardCode = (registerToken: string, onetimePassword: string) =>
  cardResult('/api/auth/upgrade/sc', false, { register_token: registerToken, onetime_password: onetimePassword });
export const confirmCardPin = (registerToken: string, pin: string) => cardResult('/api/auth/upgrade/sc', false, { register_token: registerToken, pin });

/** POST /api/auth/numberless (Bearer): the holder's mobile; an SMS code goes there when it holds a numberless card. */
export const startNumberless = async (tel: string) =>
  checkShape(numberlessResponseSchema, await apiPost<unknown>('/api/auth/numberless', { auth: true, json: { tel } }), 'numberless');

/** POST /api/auth/numberless/otp (Bearer): the SMS code; the numberless card is linked. */
export const confirmNumberless = (registerToken: string, onetimePassword: string) =>
  cardResult('/api/auth/numberless/otp', true, { register_token: registerToken, onetime_password: onetimePassword });
