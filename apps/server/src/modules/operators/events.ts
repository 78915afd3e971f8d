import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { recordAudit } from '../audit/audit.ts';

/** The operator who acted on the host, by `npm run admin` (admin-cli.ts): the audit's operator and role. */
export const HOST_OPERATOR = 'host';

/** What an operator did to the operators' side: who, in which role, what, on whom, from where. */
export interface OperatorEvent {
  event: 'operator.sign_in' | 'operator.enrol' | 'operator.invite' | 'operator.bootstrap';
  /** The operator who acted; HOST_OPERATOR for the command on the host. */
  operatorId: string;
  /** Their role; HOST_OPERATOR for the command on the host. */
  role: string;
  /** The operator the action was about (an invite's or a bootstrap's), when there is one. */
  targetOperatorId?: string;
  address?: string;
  requestId?: string;
  at: number;
}

/**
 * Writes an operator's sign-in, enrolment, invite or bootstrap to the append-only audit log
 * (modules/audit/; decision 0032), in `db` (a caller's transaction, where it has one), so that the
 * security team reads them beside the actions on members.
 */
export async function recordOperatorEvent(db: Kysely<Database>, event: OperatorEvent): Promise<void> {
  await recordAudit(
    db,
    {
      operatorId: event.operatorId,
      operatorRole: event.role,
      action: event.event,
      address: event.address ?? null,
      requestId: event.requestId ?? null,
      ...(event.targetOperatorId ? { detail: { target_operator_id: event.targetOperatorId } } : {}),
    },
    event.at,
  );
}
