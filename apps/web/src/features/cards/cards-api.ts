import { useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { baseResponseSchema } from '@sso/contracts/common';
import { cardResultResponseSchema, cardsResponseSchema, cardTokensResponseSchema, type cardAddFormSchema } from '@sso/contracts/cards';
import { apiPost } from '../../lib/api-client.ts';
import { CARDS_KEY } from '../../lib/cards-query.ts';

/** The card calls (SPEC.md section 7, "Cards (sub-users)"; decision 0006), JSON bodies with the Bearer token. */

export type CardByNumber = z.output<typeof cardAddFormSchema>;

/** POST /api/subuser/card/tokens: the cards of the member's cardholders waiting to be added. */
export const fetchWaitingCards = async (signal?: AbortSignal) =>
  (await apiPost('/api/subuser/card/tokens', cardTokensResponseSchema, { auth: true, what: 'card tokens', ...(signal && { signal }) })).card_tokens;

export const useWaitingCardsQuery = () =>
  useQuery({ queryKey: [...CARDS_KEY, 'waiting'], queryFn: ({ signal }) => fetchWaitingCards(signal), retry: false });

const cardResult = async (path: string, json: unknown) =>
  apiPost(path, cardResultResponseSchema, { auth: true, json, what: 'card result' });

/** POST /api/subuser/card/add with a waiting card's token. */
export const addWaitingCard = (cardToken: string) => cardResult('/api/subuser/card/add', { card_token: cardToken });

/** The body of an add by number: the card sign-up's card fields (SPEC.md section 3). */
export const addByNumberBody = (card: CardByNumber) => ({ cardnumber: card.cardnumber, cc_month: card.cc_month, cc_year: card.cc_year, cvc: card.cvc });

/** POST /api/subuser/card/add with a card's number, expiry and security code. */
export const addCardByNumber = (card: CardByNumber) => cardResult('/api/subuser/card/add', addByNumberBody(card));

/** POST /api/subuser/card/enable: an inactive waiting card is switched on, so that it can be added. */
export const enableCard = (cardToken: string) => apiPost('/api/subuser/card/enable', baseResponseSchema, { auth: true, json: { card_token: cardToken } });

/** POST /api/subuser/card/activate with the 6-digit activation key (SPEC.md section 5). */
export const activateCard = (subuserId: string, activationKey: string) =>
  cardResult('/api/subuser/card/activate', { subuser_id: subuserId, activation_key: activationKey });

/** POST /api/subuser/delete: the selected active cards, all or none. */
export const removeCards = (subuserIds: readonly string[]) =>
  apiPost('/api/subuser/delete', baseResponseSchema, { auth: true, json: { subuser_ids: subuserIds } });

/** POST /api/subuser/card/update_relevant_tokens: the registered cards re-read from the card master. */
export const rereadCards = async () =>
  (await apiPost('/api/subuser/card/update_relevant_tokens', cardsResponseSchema, { auth: true, json: {}, what: 'cards' })).saison_subusers;
