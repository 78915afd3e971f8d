import { maskEmail, maskTel } from '../../lib/mask.ts';
import { parseLoginId } from '../account/login-id.ts';
import { searchUsers, type UserRow } from '../account/user-repo.ts';
import { recordAudit } from '../audit/audit.ts';
import { cardsByEnding, memberIdsByEsids } from '../cards/card-repo.ts';
import { auditOf, requireRole, SupportError, type OperatorContext, type SupportDeps } from './support-deps.ts';

/** At most this many members a search: a search is to find one member, never to list them. */
export const SEARCH_LIMIT = 10;
/** Cards of one last-four read here before the profile's birth date narrows their holders (open and upgraded members). */
const CARD_CANDIDATES = 1_000;

/** How support searches: an e-mail, a mobile number, a member id, or a card's last four digits with the birth date. */
export type MemberQuery = { email: string } | { tel: string } | { memberId: string } | { cardLastFour: string; birthday: string };

/** A member as a search lists them: nothing personal unmasked. */
export interface MemberSummary {
  member_id: string;
  member_type: 'card' | 'open';
  status: 'active' | 'suspended' | 'withdrawn';
  email: string;
  tel: string | null;
  created_at: number;
}

/**
 * Hyphens, dashes, minus signs and the long vowel mark, slashes, dots and spaces: what a member form
 * drops from a number after NFKC (apps/web/src/lib/input-normalise.ts, `digits`; docs/decisions/0018).
 */
const SEPARATORS = /[-\u2010-\u2015\u2043\u2212\u30FC/.\s()]+/g;
const digitsOf = (s: string) => s.normalize('NFKC').replace(SEPARATORS, '');

/** A birth date as the member forms take it: 19900101, or 1990/1/1, 1990-01-01, 1990年1月1日. */
export function birthdayOf(raw: string): string {
  const t = raw.normalize('NFKC').trim();
  const date = /^(\d{4})(?:[-\u2010-\u2015\u2212\u30FC/.\s]+|年)(\d{1,2})(?:[-\u2010-\u2015\u2212\u30FC/.\s]+|月)(\d{1,2})日?$/.exec(t);
  return date ? `${date[1]}${date[2]?.padStart(2, '0')}${date[3]?.padStart(2, '0')}` : digitsOf(t);
}

/** The search's form as the login would read it: the e-mail lower-cased (account/login-id.ts), the number's digits only. */
function normalised(query: MemberQuery): Parameters<typeof searchUsers>[1] | { cardLastFour: string; birthday: string } {
  if ('email' in query) {
    const email = parseLoginId(query.email.normalize('NFKC')).email;
    if (!email) throw new SupportError('invalid_request');
    return { email };
  }
  if ('tel' in query) {
    const tel = digitsOf(query.tel);
    if (!/^\d{10,11}$/.test(tel)) throw new SupportError('invalid_request');
    return { tel };
  }
  if ('memberId' in query) {
    const id = query.memberId.trim();
    if (id === '' || id.length > 100) throw new SupportError('invalid_request');
    return { id };
  }
  const lastFour = digitsOf(query.cardLastFour);
  const birthday = birthdayOf(query.birthday);
  if (!/^\d{4}$/.test(lastFour) || !/^\d{8}$/.test(birthday)) throw new SupportError('invalid_request');
  return { cardLastFour: lastFour, birthday };
}

export const summaryOf = (u: UserRow): MemberSummary => ({
  member_id: u.id,
  member_type: u.member_type,
  status: u.status,
  email: u.status === 'withdrawn' ? '' : maskEmail(u.email),
  tel: u.tel ? maskTel(u.tel) : null,
  created_at: Number(u.created_at),
});

/**
 * The members holding a card ending in these four digits whose birth date is this one: by the profile
 * (open and upgraded members), or by the card master, which alone holds a card member's birth date and
 * answers the holder's cards in one call (ports/card-master.ts). Newest first, at most SEARCH_LIMIT.
 */
async function byCardEnding(deps: SupportDeps, lastFour: string, birthday: string): Promise<UserRow[]> {
  const cards = await cardsByEnding(deps.db, lastFour, CARD_CANDIDATES);
  const byProfile = await searchUsers(deps.db, { ids: [...new Set(cards.map((c) => c.user_id))], birthday }, SEARCH_LIMIT);
  const held = await deps.cardMaster.cardsByEndingAndBirthday(lastFour, birthday).catch(() => {
    throw new SupportError('card_master_unavailable');
  });
  const byHolder = await searchUsers(deps.db, { ids: await memberIdsByEsids(deps.db, held.slice(0, CARD_CANDIDATES)), memberType: 'card' }, SEARCH_LIMIT);
  const found = new Map([...byProfile, ...byHolder].map((m) => [m.id, m]));
  return [...found.values()].sort((a, b) => Number(b.created_at) - Number(a.created_at) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)).slice(0, SEARCH_LIMIT);
}

/**
 * Finds members for the support desk (`support`, `security`): at most SEARCH_LIMIT, masked, newest
 * first; withdrawn members are found by their id only (their e-mail and number were freed). The card
 * search matches the birth date the member's profile holds (an open or upgraded member's) or, for a
 * card member, whose profile holds none, the birth date the card master holds for the card's holder. The search is audited with its kind, never its value.
 */
export async function findMembers(deps: SupportDeps, ctx: OperatorContext, query: MemberQuery): Promise<MemberSummary[]> {
  requireRole(ctx, 'member.search');
  const by = normalised(query);
  let rows: UserRow[] | undefined;
  try {
    rows = 'cardLastFour' in by ? await byCardEnding(deps, by.cardLastFour, by.birthday) : await searchUsers(deps.db, by, SEARCH_LIMIT);
    return rows.map(summaryOf);
  } finally {
    // A search that failed (the card master did not answer) is audited too, with nothing found.
    const kind = Object.keys(query).join('+');
    await recordAudit(deps.db, { ...auditOf(ctx), action: 'member.search', detail: { by: kind, found: rows?.length ?? null } }, deps.clock.now());
  }
}
