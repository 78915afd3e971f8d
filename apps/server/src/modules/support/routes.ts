import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { ADMIN_MEMBER_MESSAGES as MSG, type MemberActionRequest } from '@sso/contracts/admin-members';
import { OK_RESPONSE } from '@sso/contracts/common';
import { RESULT, type ResultCode } from '@sso/contracts/result-codes';
import { SERVER_MESSAGES } from '@sso/contracts/messages';
import { AppError, validationError } from '../../lib/app-error.ts';
import { exportAuditJsonLines, InvalidAuditCursor, readAudit, recordAudit, type AuditFilter } from '../audit/audit.ts';
import type { OperatorDeps } from '../operators/operator-deps.ts';
import { withOperatorNames } from '../operators/operator-names.ts';
import { operatorPost, type OperatorCall } from '../operators/operator-post.ts';
import { requireFreshProof } from '../operators/session-service.ts';
import { findMembers, type MemberQuery } from './find-members.ts';
import { endMemberSessionsBySupport, removeMemberPasskey, resendActivation, restoreMember, sendPasswordReset, suspendMember, unlockMember } from './member-actions.ts';
import { memberOverview, revealField } from './member-overview.ts';
import { SupportError, type OperatorAction, type OperatorContext, type SupportDeps, type SupportRefusal } from './support-deps.ts';
import type { TokenDeps } from '../oauth/token-service.ts';

/**
 * What each refusal of the support services answers (SPEC.md section 8's body, a Japanese message):
 * the HTTP status says its kind (404 an unknown member or passkey, 409 a state the action cannot
 * run in, 403 a role), the result code what the console does with it (300 access denied, 901 the
 * input, 902 a failure the operator may act on and retry).
 */
const REFUSALS: Record<SupportRefusal, { status: number; code: ResultCode; message: string }> = {
  forbidden: { status: 403, code: RESULT.ACCESS_DENIED, message: MSG.forbidden },
  invalid_request: { status: 400, code: RESULT.VALIDATION, message: SERVER_MESSAGES.validation },
  member_not_found: { status: 404, code: RESULT.RETRYABLE, message: MSG.memberNotFound },
  passkey_not_found: { status: 404, code: RESULT.RETRYABLE, message: MSG.passkeyNotFound },
  not_locked: { status: 409, code: RESULT.RETRYABLE, message: MSG.notLocked },
  not_active: { status: 409, code: RESULT.RETRYABLE, message: MSG.notActive },
  already_suspended: { status: 409, code: RESULT.RETRYABLE, message: MSG.alreadySuspended },
  not_suspended: { status: 409, code: RESULT.RETRYABLE, message: MSG.notSuspended },
  no_pending_activation: { status: 404, code: RESULT.RETRYABLE, message: MSG.noPendingActivation },
  mail_limit: { status: 400, code: RESULT.RETRYABLE, message: MSG.mailLimit },
  card_master_unavailable: { status: 503, code: RESULT.RETRYABLE, message: MSG.cardMasterUnavailable },
};

/** Runs a support service; its refusal becomes the answer REFUSALS names. */
async function answering<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (e) {
    if (!(e instanceof SupportError)) throw e;
    const r = REFUSALS[e.refusal];
    throw new AppError(r.code, r.message, r.status);
  }
}

const contextOf = ({ session, address, requestId }: OperatorCall<unknown>): OperatorContext => ({ operatorId: session.id, role: session.role as OperatorContext['role'], address, requestId });
const actionOf = (call: OperatorCall<{ reason: string; ticket?: string | undefined }>): OperatorAction => ({
  ...contextOf(call),
  reason: call.input.reason,
  ...(call.input.ticket !== undefined ? { ticket: call.input.ticket } : {}),
});

const queryOf = (input: { email?: string | undefined; tel?: string | undefined; member_id?: string | undefined; card_last4?: string | undefined; birthday?: string | undefined }): MemberQuery => {
  if (input.email) return { email: input.email };
  if (input.tel) return { tel: input.tel };
  if (input.member_id) return { memberId: input.member_id };
  return { cardLastFour: input.card_last4 ?? '', birthday: input.birthday ?? '' };
};

const filterOf = (input: { operator_id?: string | undefined; member_id?: string | undefined; client_id?: string | undefined; action?: AuditFilter['action']; from?: number | undefined; to?: number | undefined }): AuditFilter => ({
  ...(input.operator_id !== undefined ? { operatorId: input.operator_id } : {}),
  ...(input.member_id !== undefined ? { memberId: input.member_id } : {}),
  ...(input.client_id !== undefined ? { clientId: input.client_id } : {}),
  ...(input.action !== undefined ? { action: input.action } : {}),
  ...(input.from !== undefined ? { from: input.from } : {}),
  ...(input.to !== undefined ? { to: input.to } : {}),
});

/** The filter as the audit row of a read or an export keeps it (what was looked at, in the API's names). */
const filterDetail = (input: Record<string, unknown>) => Object.fromEntries(Object.entries(input).filter(([k, v]) => v !== undefined && k !== 'cursor' && k !== 'limit'));

/**
 * The operator API's member support and audit (docs/operations.md, "Operators"; decision 0032): the
 * support services of this module behind the operator guard, each route's least role the API
 * catalogue's. Suspending, restoring and removing a passkey need a fresh passkey proof too.
 */
export function registerSupportRoutes(app: FastifyInstance, deps: SupportDeps & OperatorDeps & Pick<TokenDeps, 'clients'>): void {
  operatorPost(app, deps, 'POST /api/admin/members/search', async (call) => ({ ...OK_RESPONSE, members: await answering(() => findMembers(deps, contextOf(call), queryOf(call.input))) }));
  operatorPost(app, deps, 'POST /api/admin/members/view', async (call) => ({ ...OK_RESPONSE, member: await answering(() => memberOverview(deps, contextOf(call), call.input.member_id)) }));
  operatorPost(app, deps, 'POST /api/admin/members/reveal', async (call) => ({
    ...OK_RESPONSE,
    field: call.input.field,
    value: await answering(() => revealField(deps, contextOf(call), call.input.member_id, call.input.field)),
  }));

  const act = (run: (action: OperatorAction, input: MemberActionRequest) => Promise<unknown>, fresh: boolean) => async (call: OperatorCall<MemberActionRequest>) => {
    if (fresh) requireFreshProof(deps, call.session);
    await answering(() => run(actionOf(call), call.input));
    return OK_RESPONSE;
  };
  operatorPost(app, deps, 'POST /api/admin/members/unlock', act((a, i) => unlockMember(deps, a, i.member_id), false));
  operatorPost(app, deps, 'POST /api/admin/members/password-reset', act((a, i) => sendPasswordReset(deps, a, i.member_id), false));
  operatorPost(app, deps, 'POST /api/admin/members/suspend', act((a, i) => suspendMember(deps, a, i.member_id), true));
  operatorPost(app, deps, 'POST /api/admin/members/restore', act((a, i) => restoreMember(deps, a, i.member_id), true));
  operatorPost(app, deps, 'POST /api/admin/members/end-sessions', async (call) => {
    const ended = await answering(() => endMemberSessionsBySupport(deps, actionOf(call), call.input.member_id));
    return { ...OK_RESPONSE, ended: { sessions: ended.sessions, sso_sessions: ended.ssoSessions.length } };
  });
  operatorPost(app, deps, 'POST /api/admin/members/resend-activation', async (call) => {
    await answering(() => resendActivation(deps, actionOf(call), call.input.email));
    return OK_RESPONSE;
  });
  operatorPost(app, deps, 'POST /api/admin/members/passkeys/remove', async (call) => {
    requireFreshProof(deps, call.session);
    await answering(() => removeMemberPasskey(deps, actionOf(call), call.input.member_id, call.input.passkey_id));
    return OK_RESPONSE;
  });

  operatorPost(app, deps, 'POST /api/admin/audit', async (call) => {
    const filter = filterOf(call.input);
    let page: Awaited<ReturnType<typeof readAudit>>;
    try {
      page = await readAudit(deps.db, { ...filter, ...(call.input.cursor !== undefined ? { cursor: call.input.cursor } : {}), ...(call.input.limit !== undefined ? { limit: call.input.limit } : {}) });
    } catch (e) {
      if (e instanceof InvalidAuditCursor) throw validationError([{ key: 'cursor', message: MSG.invalidCursor }]);
      throw e;
    }
    // Recorded after the page is read, so that a page never lists its own read.
    await recordAudit(deps.db, { operatorId: call.session.id, operatorRole: call.session.role, action: 'audit.read', address: call.address, requestId: call.requestId, detail: { filter: filterDetail(call.input) } }, deps.clock.now());
    return { ...OK_RESPONSE, records: await withOperatorNames(deps.db, page.records), next: page.next };
  });
  operatorPost(app, deps, 'POST /api/admin/audit/export', async (call) => {
    // Recorded before the first line: an export cut off midway was still an export.
    await recordAudit(deps.db, { operatorId: call.session.id, operatorRole: call.session.role, action: 'audit.export', address: call.address, requestId: call.requestId, detail: { filter: filterDetail(call.input) } }, deps.clock.now());
    const lines = Readable.from(exportAuditJsonLines(deps.db, filterOf(call.input)));
    return call.reply.type('application/x-ndjson; charset=utf-8').header('Content-Disposition', 'attachment; filename="audit.jsonl"').send(lines);
  });
}
