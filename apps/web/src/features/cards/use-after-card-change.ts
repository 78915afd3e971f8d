import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { handBackToPortal } from '../../lib/portal-hand-back.ts';
import { refreshCardsAfterChange } from './card-refresh.ts';

/** What the all-cards list says after a change (router state of /subusers/all). */
export interface CardsNotice {
  notice?: string;
}

/**
 * What follows a card add, activation or removal (SPEC.md section 4; decision 0006): the card lists
 * are refreshed, then a member who came from a portal app goes back to it with the card's esid;
 * anyone else goes to the all-cards list, which says what happened. Answers 'leaving' for the
 * pending action when the page is handed back.
 */
export function useAfterCardChange() {
  const client = useQueryClient();
  const navigate = useNavigate();
  return useCallback(
    (esid: string, notice: string): 'leaving' | undefined => {
      refreshCardsAfterChange(client);
      if (handBackToPortal(esid)) return 'leaving';
      void navigate('/subusers/all', { replace: true, state: { notice } satisfies CardsNotice });
      return undefined;
    },
    [client, navigate],
  );
}
