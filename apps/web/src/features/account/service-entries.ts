import { clientOrigin, isCardholdersOnly } from '@sso/contracts/client-origin';
import type { ServiceLink, UserAttributeResponse } from '@sso/contracts/user';

/** What Top's services group lists (SPEC.md section 2, "Top"). */
export interface ServiceEntries {
  /** The Net Answer link, for card members (SPEC.md section 6). */
  netAnswer: boolean;
  /** The other services the member has, each once. */
  services: ServiceLink[];
}

/**
 * Top's services (SPEC.md sections 2 and 6): the Net Answer link for card members, and the service
 * links the member has. Net Answer is never a service link as well, whatever the client the member
 * came from (a member who logged in through Net Answer has it among the used services): its one
 * link is the card member's, which hands off with a card (/subuser/redirect/netanswer). A member
 * holding no card has none: an open member without a card has no Net Answer id (section 6). A member without a card is not offered a
 * cardholders-only service (the line answer, SPEC.md section 6; decision 0015), which would refuse
 * them, even if they used it while they held a card.
 */
export function serviceEntries(attribute: Pick<UserAttributeResponse, 'is_user_saison_card' | 'service_links'>): ServiceEntries {
  const seen = new Set<string>();
  const services = (attribute.service_links ?? []).filter((s) => {
    if (clientOrigin(s.client_id) === 'netAnswer' || seen.has(s.client_id)) return false;
    if (!attribute.is_user_saison_card && isCardholdersOnly(s.client_id)) return false;
    seen.add(s.client_id);
    return true;
  });
  return { netAnswer: attribute.is_user_saison_card, services };
}
