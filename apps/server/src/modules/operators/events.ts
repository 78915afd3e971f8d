/** What an operator did, as the audit log will hold it: who, in which role, what, on whom, from where. */
export interface OperatorEvent {
  /** `operator_sign_in`, `operator_enrolled`, `operator_invited`, `operator_bootstrap`, … */
  event: string;
  /** The operator who acted; null for the bootstrap command on the host. */
  operatorId: string | null;
  role: string | null;
  /** The operator the action was about (an invite's or an enrolment's), when there is one. */
  targetOperatorId?: string;
  address?: string;
  requestId?: string;
  at: number;
}

/** The logger an event is written to: the app's (Fastify's pino) or the command's. */
export interface EventLog {
  info(object: Record<string, unknown>, message: string): void;
}

/**
 * Writes an operator's sign-in or action (decision 0032). The audit module will receive these
 * events in its append-only log; until it does, each is one line of the app's log with the marker
 * `operator_event`, so that every call site is in place and only this function changes.
 */
export function recordOperatorEvent(log: EventLog, event: OperatorEvent): void {
  log.info({ operator_event: event }, `operator event: ${event.event}`);
}
