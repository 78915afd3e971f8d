import { useQuery } from '@tanstack/react-query';
import { cardsResponseSchema } from '@sso/contracts/cards';
import { apiPost } from './api-client.ts';

/**
 * The member's registered cards (SPEC.md section 3, "Sub-user (card)"): POST /api/subuser/cards with
 * the Bearer token. The card screens and the user page read it, so it lives here.
 */
export const fetchCards = async (signal?: AbortSignal) =>
  (await apiPost('/api/subuser/cards', cardsResponseSchema, { auth: true, what: 'cards', ...(signal && { signal }) })).saison_subusers;

/** The key of every card query: a card change invalidates them all (the registered and the waiting cards). */
export const CARDS_KEY = ['cards'] as const;

/** Queries use the 3 s stale time of the query client (SPEC.md section 7); no automatic retry. */
export const useCardsQuery = () => useQuery({ queryKey: CARDS_KEY, queryFn: ({ signal }) => fetchCards(signal), retry: false });
