import type { FastifyInstance } from 'fastify';
import type { ClientStore } from '../clients/client-store.ts';
import {
  adminClients,
  adminOperators,
  disableOperator,
  enableOperator,
  registerClientAs,
  retireClientSecretsAs,
  rotateClientSecretAs,
  setClientEnabledAs,
  updateClientAs,
  type AdminActor,
} from './admin-service.ts';
import { OK_RESPONSE } from '@sso/contracts/common';
import type { OperatorDeps } from './operator-deps.ts';
import { operatorPost, type OperatorCall } from './operator-post.ts';
import { requireFreshProof } from './session-service.ts';

/** What the administrator's routes need beside the operator services': the client registry of this node and PUBLIC_ORIGIN. */
export interface AdminRouteDeps extends OperatorDeps {
  clients: ClientStore;
  publicOrigin: string;
}

/** The audit's who, where and why of a call whose body carries `reason` and `ticket`. */
const actorOf = (call: OperatorCall<{ reason: string; ticket?: string | undefined }>): AdminActor => ({
  operatorId: call.session.id,
  role: call.session.role,
  address: call.address,
  requestId: call.requestId,
  reason: call.input.reason,
  ticket: call.input.ticket,
});

/** The body without the audit's fields: what the client services take. */
function withoutAudit<T extends { reason: string; ticket?: string | undefined }>(input: T): Omit<T, 'reason' | 'ticket'> {
  const { reason: _reason, ticket: _ticket, ...rest } = input;
  return rest;
}

/**
 * The administrator's operator API (role `admin`, decision 0032): partner clients in the database
 * (decision 0031) and the operators. Every change to a client (its redirect URIs decide where
 * members' codes go) and to the operators needs a fresh passkey proof, as the invite does; every
 * change is audited.
 */
export function registerAdminRoutes(app: FastifyInstance, deps: AdminRouteDeps): void {
  const services = { db: deps.db, clock: deps.clock, clients: deps.clients, publicOrigin: deps.publicOrigin };

  operatorPost(app, deps, 'POST /api/admin/clients', async () => ({ ...OK_RESPONSE, clients: await adminClients(services) }));
  operatorPost(app, deps, 'POST /api/admin/clients/register', async (call) => {
    requireFreshProof(deps, call.session);
    return registerClientAs(services, actorOf(call), withoutAudit(call.input));
  });
  operatorPost(app, deps, 'POST /api/admin/clients/update', async (call) => {
    requireFreshProof(deps, call.session);
    const { client_id: clientId, ...changes } = withoutAudit(call.input);
    return updateClientAs(services, actorOf(call), clientId, changes);
  });
  operatorPost(app, deps, 'POST /api/admin/clients/enable', async (call) => {
    requireFreshProof(deps, call.session);
    return setClientEnabledAs(services, actorOf(call), call.input.client_id, true);
  });
  operatorPost(app, deps, 'POST /api/admin/clients/disable', async (call) => {
    requireFreshProof(deps, call.session);
    return setClientEnabledAs(services, actorOf(call), call.input.client_id, false);
  });
  operatorPost(app, deps, 'POST /api/admin/clients/secret/rotate', async (call) => {
    requireFreshProof(deps, call.session);
    return rotateClientSecretAs(services, actorOf(call), call.input.client_id, call.input.overlap_ms);
  });
  operatorPost(app, deps, 'POST /api/admin/clients/secret/retire', async (call) => {
    requireFreshProof(deps, call.session);
    return retireClientSecretsAs(services, actorOf(call), call.input.client_id);
  });

  operatorPost(app, deps, 'POST /api/admin/operators', async () => adminOperators(deps.db));
  operatorPost(app, deps, 'POST /api/admin/operators/disable', async (call) => {
    requireFreshProof(deps, call.session);
    return disableOperator(deps, actorOf(call), call.input.operator_id);
  });
  operatorPost(app, deps, 'POST /api/admin/operators/enable', async (call) => {
    requireFreshProof(deps, call.session);
    return enableOperator(deps, actorOf(call), call.input.operator_id);
  });
}
