import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import type { Subuser } from '@sso/contracts/cards';
import { CARDS_KEY } from '../../lib/cards-query.ts';
import { handBackToPortal } from '../../lib/portal-hand-back.ts';
import { refreshCardsAfterChange } from './card-refresh.ts';

/** What the all-cards list says after a change (router state of /subusers/all). */
export interface CardsNotice {
  notice?: string;
}

/**
 * What follows a card add, activation or removal (SPEC.md section 4; decision 0006): the card lists
 * are refreshed, then a member who came from a portal app goes back to it with the card's esid;
 * anyone else goes to the all-cards list, which says what happened. Cards just removed leave the
 * cached list at once, so that no screen shows them while the list is read again. Answers
 * 'leaving' for the pending action when the page is handed back.
 */
export function useAfterCardChange() {
  const client = useQueryClient();
  const navigate = useNavigate();
  return useCallback(
    (esid: string, notice: string, removedIds: readonly string[] = []): 'leaving' | undefined => {
      if (removedIds.length > 0) {
        client.setQueryData<Subuser[]>(CARDS_KEY, (cards) => cards?.filter((c) => !removedIds.includes(c.subuser_id)));
      }
      refreshCardsAfterChange(client);
      if (handBackToPortal(esid)) return 'leaving';
      void navigate('/subusers/all', { replace: true, state: { notice } satisfies CardsNotice });
      return undefined;
    },
    [client, navigate],
  );
}
