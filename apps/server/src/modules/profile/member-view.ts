import type { Kysely } from 'kysely';
import type { MemberAttributes, MemberRecord } from '@sso/contracts/user';
import type { Database } from '../../db/schema.ts';
import { maskTel } from '../../lib/mask.ts';
import { findPoints } from '../../ports/point-ledger-repo.ts';
import type { UserRow } from '../account/user-repo.ts';
import { hasCards } from '../cards/card-repo.ts';
import type { ClientRegistry } from '../clients/clients.ts';
import { usedClientIds } from '../oauth/token-repo.ts';
import { profileOf } from './profile-service.ts';

/**
 * The member's own record (SPEC.md section 7, User: `/api/user`), as /api/user answers it and Top's
 * one request carries it: open members' answers carry their profile (SPEC.md section 3, "User: ...
 * optional user_profile"), and the login mobile number is masked (decision 0014).
 */
export function memberRecord(user: UserRow): MemberRecord {
  const profile = profileOf(user);
  const login_tel = user.tel === null ? null : maskTel(user.tel);
  return { email: user.email, user_id: user.id, ...(profile ? { user_profile: profile } : {}), login_tel };
}

/**
 * The member's kind and service links (SPEC.md section 7, `/api/user/attribute`), as that endpoint
 * answers them and Top's one request carries them. `holdsCards`: whether the member has a card, where
 * the caller reads the cards anyway (Top); else it is looked up.
 */
export async function memberAttributes(
  deps: { db: Kysely<Database>; clients: ClientRegistry },
  user: UserRow,
  holdsCards: Promise<boolean> = hasCards(deps.db, user.id),
): Promise<MemberAttributes> {
  const [cards, openPoints, used] = await Promise.all([
    holdsCards,
    findPoints(deps.db, user.id, 'open').then((points) => points ?? 0),
    usedClientIds(deps.db, user.id),
  ]);
  const serviceLinks = used
    .map((id) => deps.clients.get(id))
    .filter((c) => c?.service_link)
    .map((c) => ({ name: c!.name, client_id: c!.client_id }));
  return {
    // Two facts, both true for an open member who has added a card (docs/decisions/0016).
    is_user_open: user.member_type === 'open',
    is_user_saison_card: cards,
    is_user_saison_aqf: openPoints > 0 || cards,
    service_links: serviceLinks,
  };
}
