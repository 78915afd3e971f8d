import { REVEALABLE_FIELDS, type RevealableFieldName } from '@sso/contracts/admin-members';
import { LIMITS } from '@sso/contracts/constants';
import { maskBirthday, maskEmail, maskName, maskPostalCode, maskTel } from '../../lib/mask.ts';
import { findUserById, type UserRow } from '../account/user-repo.ts';
import { addressOf, deviceOf, listActivities } from '../activity/activity-repo.ts';
import { recordAudit } from '../audit/audit.ts';
import { listMemberCards } from '../cards/card-repo.ts';
import { liveUserFamilies } from '../oauth/token-repo.ts';
import { memberPasskeys } from '../passkeys/passkey-repo.ts';
import { liveSsoSessions } from '../sso/sso-session-repo.ts';
import { accountLockKey, throttleKey } from '../verification/account-lock.ts';
import { throttleRows } from '../verification/login-throttle-repo.ts';
import { auditOf, requireRole, SupportError, type OperatorContext, type SupportDeps } from './support-deps.ts';

/** The newest rows of the activity log the member's page shows. */
export const OVERVIEW_ACTIVITIES = 50;

/** The member's login lock as the server sees it: nothing of its key leaves the server (decision 0011). */
export interface LoginLockView {
  locked: boolean;
  /** Why: ten wrong passwords in a row, by any of the member's ids (LIMITS.loginFailuresBeforeLock). */
  reason: 'login_failures' | null;
  /** Wrong passwords counted in the current run. */
  failures: number;
  /** When the lock ends and how long is left, in ms; null when not locked. */
  until: number | null;
  remaining_ms: number | null;
}

/** The fields an operator may reveal one at a time (revealField); each is masked on the member's page. */
export const REVEALABLE = REVEALABLE_FIELDS;
export type RevealableField = RevealableFieldName;

export interface MemberOverview {
  member_id: string;
  member_type: 'card' | 'open';
  /** 'locked': active, but the login is locked now (the lock says why and for how long). */
  status: 'active' | 'locked' | 'suspended' | 'withdrawn';
  suspended_at: number | null;
  lock: LoginLockView;
  created_at: number;
  updated_at: number;
  /** Personal data, masked; null where the member has none. */
  personal: Record<RevealableField, string | null>;
  require_passkey: boolean;
  cards: { subuser_id: string; card_name: string; card_number_mask: string; status: string; created_at: number }[];
  passkeys: { id: string; name: string; created_at: number; last_used_at: number | null; synced: boolean }[];
  /** The browsers' SSO sessions (decision 0026): last use, the kind of browser and the address of its login or last recorded use. */
  sso_sessions: { sid: string; device: string | null; address: string | null; created_at: number; last_used_at: number; last_client_id: string | null; expires_at: number }[];
  /**
   * The partners' sessions (token families): the client, the last token issued, and the browser and
   * address of the SSO session it came from (a token family keeps neither itself).
   */
  partner_sessions: { id: string; client_id: string; created_at: number; last_used_at: number; device: string | null; address: string | null; sso_session_id: string | null }[];
  /** The newest OVERVIEW_ACTIVITIES rows of the member's activity log, with the device, and the address where the row has one (logins, failed logins). */
  activities: { event: string; client_id: string | null; device: string | null; address: string | null; created_at: number }[];
}

/** A member of any status, or 'member_not_found'. */
export async function memberOrThrow(deps: SupportDeps, memberId: string): Promise<UserRow> {
  const user = typeof memberId === 'string' && memberId !== '' ? await findUserById(deps.db, memberId) : undefined;
  if (!user) throw new SupportError('member_not_found');
  return user;
}

/** The member's lock keys: the account's, and its e-mail's and mobile number's own (verification/account-lock.ts). */
export const lockKeysOf = (user: Pick<UserRow, 'id' | 'email' | 'tel'>) => [
  accountLockKey(user.id),
  throttleKey({ email: user.email }),
  ...(user.tel ? [throttleKey({ tel: user.tel })] : []),
];

/** The login lock, read under the keys the server computes (LOOKUP_KEY never leaves it). */
export async function loginLockOf(deps: SupportDeps, user: UserRow): Promise<LoginLockView> {
  const now = deps.clock.now();
  const rows = await throttleRows(deps.db, lockKeysOf(user));
  const live = rows.filter((r) => r.locked_until === null || Number(r.locked_until) > now);
  const until = Math.max(0, ...live.map((r) => (r.locked_until === null ? 0 : Number(r.locked_until))));
  const failures = Math.max(0, ...live.map((r) => Number(r.failed_count)));
  const locked = until > now;
  return {
    locked,
    reason: locked || failures >= LIMITS.loginFailuresBeforeLock ? 'login_failures' : null,
    failures,
    until: locked ? until : null,
    remaining_ms: locked ? until - now : null,
  };
}

const nameOf = (last: string | null, first: string | null) => (last === null && first === null ? null : `${last ?? ''}\u3000${first ?? ''}`.trim());

/** The revealable fields, unmasked: only revealField hands one out. */
function plainFields(u: UserRow): Record<RevealableField, string | null> {
  return {
    email: u.status === 'withdrawn' ? null : u.email,
    tel: u.tel,
    profile_tel: u.profile_tel,
    name: nameOf(u.last_name, u.first_name),
    name_kana: nameOf(u.last_name_kana, u.first_name_kana),
    birthday: u.birthday,
    postal_code: u.postal_code,
  };
}

function maskedFields(u: UserRow): Record<RevealableField, string | null> {
  const p = plainFields(u);
  const masked = (v: string | null, mask: (s: string) => string) => (v === null ? null : mask(v));
  return {
    email: masked(p.email, maskEmail),
    tel: masked(p.tel, maskTel),
    profile_tel: masked(p.profile_tel, maskTel),
    name: nameOf(masked(u.last_name, maskName), masked(u.first_name, maskName)),
    name_kana: nameOf(masked(u.last_name_kana, maskName), masked(u.first_name_kana, maskName)),
    birthday: masked(p.birthday, maskBirthday),
    postal_code: masked(p.postal_code, maskPostalCode),
  };
}

/**
 * A member's page for the support desk (`support`, `security`): type, status (active, locked with the
 * time left and why, suspended, withdrawn), cards masked, passkeys, SSO and partner sessions with
 * last use and device, and the activity log; personal data masked. The view is audited.
 */
export async function memberOverview(deps: SupportDeps, ctx: OperatorContext, memberId: string): Promise<MemberOverview> {
  requireRole(ctx, 'member.view');
  const user = await memberOrThrow(deps, memberId);
  const now = deps.clock.now();
  const [lock, cards, passkeys, sso, families, activities] = await Promise.all([
    loginLockOf(deps, user),
    listMemberCards(deps.db, user.id),
    memberPasskeys(deps.db, user.id),
    liveSsoSessions(deps.db, user.id, now),
    liveUserFamilies(deps.db, user.id, now),
    listActivities(deps.db, user.id, 0, OVERVIEW_ACTIVITIES),
  ]);
  const ssoById = new Map(sso.map((s) => [s.id, s]));
  await recordAudit(deps.db, { ...auditOf(ctx), action: 'member.view', memberId: user.id }, now);
  return {
    member_id: user.id,
    member_type: user.member_type,
    status: user.status === 'active' && lock.locked ? 'locked' : user.status,
    suspended_at: user.suspended_at === null ? null : Number(user.suspended_at),
    lock,
    created_at: Number(user.created_at),
    updated_at: Number(user.updated_at),
    personal: maskedFields(user),
    require_passkey: Number(user.require_passkey) === 1,
    cards: cards.map((c) => ({ subuser_id: c.id, card_name: c.card_name, card_number_mask: c.card_number_mask, status: c.status, created_at: Number(c.created_at) })),
    passkeys: passkeys.map((p) => ({
      id: p.id,
      name: p.name,
      created_at: Number(p.created_at),
      last_used_at: p.last_used_at === null ? null : Number(p.last_used_at),
      synced: Number(p.backed_up) === 1,
    })),
    sso_sessions: sso.map((s) => ({
      sid: s.id,
      device: s.device,
      address: s.address,
      created_at: Number(s.created_at),
      last_used_at: Number(s.last_used_at),
      last_client_id: s.last_client_id,
      expires_at: Number(s.expires_at),
    })),
    partner_sessions: families.map((f) => ({
      id: f.id,
      client_id: f.client_id,
      created_at: f.created_at,
      last_used_at: f.last_used_at,
      device: (f.sso_session_id && ssoById.get(f.sso_session_id)?.device) ?? null,
      address: (f.sso_session_id && ssoById.get(f.sso_session_id)?.address) ?? null,
      sso_session_id: f.sso_session_id,
    })),
    activities: activities.map((a) => ({ event: a.event, client_id: a.client_id, device: deviceOf(a.detail), address: addressOf(a.detail), created_at: Number(a.created_at) })),
  };
}

/**
 * One personal field of a member, unmasked (`support`, `security`): the reveal is audited with the
 * field's name (never its value) before the value is answered. Null where the member has none.
 */
export async function revealField(deps: SupportDeps, ctx: OperatorContext, memberId: string, field: RevealableField): Promise<string | null> {
  requireRole(ctx, 'member.reveal');
  if (!(REVEALABLE as readonly string[]).includes(field)) throw new SupportError('invalid_request');
  const user = await memberOrThrow(deps, memberId);
  await recordAudit(deps.db, { ...auditOf(ctx), action: 'member.reveal', memberId: user.id, detail: { field } }, deps.clock.now());
  return plainFields(user)[field];
}
