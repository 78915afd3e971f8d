import type { QueryClient } from '@tanstack/react-query';
import type { Subuser } from '@sso/contracts/cards';
import { LIMITS } from '@sso/contracts/constants';
import { CARDS_KEY } from '../../lib/cards-query.ts';
import { isLoggedIn } from '../../lib/records.ts';
import { rereadCards } from './cards-api.ts';

/**
 * After a card add, activation, enabling or removal (SPEC.md section 4: "the card list is refreshed
 * 3 s after a change"): the card lists are marked stale at once, so that the next screen reads them
 * again, and 3 s later the registered cards are re-read from the card master
 * (update_relevant_tokens), whose own records may follow a change a little later. Not tied to a
 * screen, since the change usually leaves the screen; skipped when the member has logged out.
 */
export function refreshCardsAfterChange(
  client: QueryClient,
  reread: () => Promise<Subuser[]> = rereadCards,
  delayMs: number = LIMITS.cardListRefreshMs,
): void {
  void client.invalidateQueries({ queryKey: CARDS_KEY });
  setTimeout(() => {
    if (!isLoggedIn()) return;
    reread()
      .then((cards) => client.setQueryData(CARDS_KEY, cards))
      .catch(() => undefined)
      .finally(() => void client.invalidateQueries({ queryKey: [...CARDS_KEY, 'waiting'] }));
  }, delayMs);
}
