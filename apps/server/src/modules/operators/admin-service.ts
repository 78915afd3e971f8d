import type { Kysely } from 'kysely';
import type { AdminClientView } from '@sso/contracts/admin-clients';
import { ADMIN_CLIENT_MESSAGES } from '@sso/contracts/admin-clients';
import { OK_RESPONSE } from '@sso/contracts/common';
import type { Database } from '../../db/schema.ts';
import { validationError } from '../../lib/app-error.ts';
import { recordAudit, type AuditAction } from '../audit/audit.ts';
import { registerClient, retireOldSecrets, rotateClientSecret, setClientEnabled, updateClient, type ClientAdminDeps } from '../client-admin/client-admin.ts';
import { readRegistry } from '../clients/client-repo.ts';
import { clientDefinitionSchema, resolveDefinition } from '../clients/clients.ts';
import { lockActiveAdmins, endOperatorSessions, listOperators, switchOperatorStatus } from './operator-admin-repo.ts';
import { operatorView } from './operator-deps.ts';
import { operatorById } from './operator-repo.ts';

/*
 * What an administrator does to the partner clients (decision 0031) and to the operators (decision
 * 0032) from the operator API. The client registry's services make each change and reload this node
 * at once (the others follow within CLIENTS_REFRESH_MS); each change's audit row, with the operator's
 * reason and ticket, is written in the change's own transaction: neither commits without the other. No answer carries a secret's digest: a secret is answered
 * once, when it is made.
 */

/** Who acts, from where, and why: the audit row's fields. */
export interface AdminActor {
  operatorId: string;
  role: string;
  address: string;
  requestId: string;
  reason: string;
  ticket?: string | undefined;
}

export type AdminServiceDeps = ClientAdminDeps;

async function audit(db: Kysely<Database>, now: number, actor: AdminActor, action: AuditAction, target: { clientId?: string; detail?: Record<string, unknown> }): Promise<void> {
  await recordAudit(
    db,
    {
      operatorId: actor.operatorId,
      operatorRole: actor.role,
      action,
      clientId: target.clientId ?? null,
      reason: actor.reason,
      ticket: actor.ticket ?? null,
      address: actor.address,
      requestId: actor.requestId,
      ...(target.detail ? { detail: target.detail } : {}),
    },
    now,
  );
}

/** Every client of the database's registry as the console shows it: the definition resolved, its flag and its secrets' times. */
export async function adminClients(deps: AdminServiceDeps): Promise<AdminClientView[]> {
  const { clients, secrets } = await readRegistry(deps.db);
  return clients.map((row) => {
    const c = resolveDefinition(clientDefinitionSchema.parse(JSON.parse(row.definition)), deps.publicOrigin);
    return {
      client_id: c.client_id,
      name: c.name,
      type: c.type,
      enabled: Number(row.enabled) === 1,
      redirect_uris: c.redirect_uris,
      post_logout_redirect_uris: c.post_logout_redirect_uris,
      backchannel_logout_uri: c.backchannel_logout_uri ?? null,
      scopes: c.scopes,
      terms: c.terms,
      audience: c.audience,
      service_link: c.service_link,
      web_origins: c.web_origins,
      // Unset: what the client's type implied before decision 0038, for a confidential client a secret in the
      // Basic header or the form, shown as such (null), so that an edit keeps it; for a public one none.
      token_endpoint_auth_method: c.token_endpoint_auth_method ?? (c.type === 'public' ? 'none' : null),
      jwks: c.jwks ?? null,
      jwks_uri: c.jwks_uri ?? null,
      require_pushed_authorization_requests: c.require_pushed_authorization_requests,
      dpop_bound_access_tokens: c.dpop_bound_access_tokens,
      id_token_signed_response_alg: c.id_token_signed_response_alg,
      userinfo_signed_response_alg: c.userinfo_signed_response_alg ?? null,
      secrets: secrets.filter((s) => s.client_id === row.client_id).map((s) => ({ created_at: Number(s.created_at), retire_at: s.retire_at === null ? null : Number(s.retire_at) })),
      created_at: Number(row.created_at),
      updated_at: Number(row.updated_at),
    };
  });
}

async function adminClient(deps: AdminServiceDeps, clientId: string): Promise<AdminClientView> {
  const found = (await adminClients(deps)).find((c) => c.client_id === clientId);
  if (!found) throw new Error(`client ${clientId} vanished after its change`);
  return found;
}

export async function registerClientAs(deps: AdminServiceDeps, actor: AdminActor, definition: Record<string, unknown>) {
  const { secret, client } = await registerClient(deps, definition, (trx, d) => audit(trx, deps.clock.now(), actor, 'client.create', { clientId: d.client_id, detail: { type: d.type } }));
  return { ...OK_RESPONSE, client: await adminClient(deps, client.client_id), ...(secret !== undefined ? { client_secret: secret } : {}) };
}

export async function updateClientAs(deps: AdminServiceDeps, actor: AdminActor, clientId: string, changes: Record<string, unknown>) {
  const { secret } = await updateClient(deps, clientId, changes, (trx, r) => {
    // Which fields changed in value, not which were sent (the console sends them all), the method's and the
    // flags' old and new values (decision 0040), and what the change did to the secrets (decision 0038): never a secret.
    const values = Object.keys(r.changed.values).length > 0 ? { changes: r.changed.values } : {};
    const secrets = { ...(r.secretIssued ? { secret_issued: true } : {}), ...(r.secretsRetired > 0 ? { secrets_retired: r.secretsRetired } : {}) };
    return audit(trx, deps.clock.now(), actor, 'client.update', { clientId, detail: { fields: r.changed.fields, ...values, ...secrets } });
  });
  return { ...OK_RESPONSE, client: await adminClient(deps, clientId), ...(secret !== undefined ? { client_secret: secret } : {}) };
}

export async function setClientEnabledAs(deps: AdminServiceDeps, actor: AdminActor, clientId: string, enabled: boolean) {
  const { changed, ended } = await setClientEnabled(deps, clientId, enabled, (trx, r) => {
    const detail = enabled ? { changed: r.changed } : { changed: r.changed, sessions: r.ended.sessions, codes: r.ended.codes, direct_logins: r.ended.directLogins };
    return audit(trx, deps.clock.now(), actor, enabled ? 'client.enable' : 'client.disable', { clientId, detail });
  });
  if (enabled) return { ...OK_RESPONSE, changed };
  return { ...OK_RESPONSE, changed, ended: { sessions: ended.sessions, codes: ended.codes, direct_logins: ended.directLogins } };
}

export async function rotateClientSecretAs(deps: AdminServiceDeps, actor: AdminActor, clientId: string, overlapMs: number | undefined) {
  const { secret, oldRetireAt } = await rotateClientSecret(deps, clientId, overlapMs === undefined ? {} : { overlapMs }, (trx, r) =>
    audit(trx, deps.clock.now(), actor, 'client.rotate_secret', { clientId, detail: { old_retire_at: r.oldRetireAt } }),
  );
  return { ...OK_RESPONSE, client_secret: secret, old_retire_at: oldRetireAt };
}

export async function retireClientSecretsAs(deps: AdminServiceDeps, actor: AdminActor, clientId: string) {
  const retired = await retireOldSecrets(deps, clientId, (trx, n) => audit(trx, deps.clock.now(), actor, 'client.retire_secret', { clientId, detail: { retired: n } }));
  return { ...OK_RESPONSE, retired };
}

export async function adminOperators(db: Kysely<Database>) {
  return { ...OK_RESPONSE, operators: (await listOperators(db)).map(operatorView) };
}

const refuse = (message: string) => validationError([{ key: 'operator_id', message }]);

/**
 * Disables an operator: their sessions end at once, in the same transaction, and sign-in refuses
 * them. Never oneself, never the last active administrator (the bootstrap command is the way back:
 * docs/operations.md).
 */
export async function disableOperator(deps: Pick<AdminServiceDeps, 'db' | 'clock'>, actor: AdminActor, operatorId: string) {
  if (operatorId === actor.operatorId) throw refuse(ADMIN_CLIENT_MESSAGES.notSelf);
  const now = deps.clock.now();
  return deps.db.transaction().execute(async (trx) => {
    const target = await operatorById(trx, operatorId);
    if (!target) throw refuse(ADMIN_CLIENT_MESSAGES.unknownOperator);
    if (target.role === 'admin' && target.status === 'active' && (await lockActiveAdmins(trx)) <= 1) throw refuse(ADMIN_CLIENT_MESSAGES.lastAdmin);
    const changed = await switchOperatorStatus(trx, { id: operatorId, from: 'active', to: 'disabled' });
    const endedSessions = await endOperatorSessions(trx, operatorId, now);
    await recordAudit(
      trx,
      { operatorId: actor.operatorId, operatorRole: actor.role, action: 'operator.disable', reason: actor.reason, ticket: actor.ticket ?? null, address: actor.address, requestId: actor.requestId, detail: { target_operator_id: operatorId, changed, ended_sessions: endedSessions } },
      now,
    );
    return { ...OK_RESPONSE, changed, ended_sessions: endedSessions };
  });
}

/** Enables a disabled operator again: they sign in with their passkeys as before. */
export async function enableOperator(deps: Pick<AdminServiceDeps, 'db' | 'clock'>, actor: AdminActor, operatorId: string) {
  const now = deps.clock.now();
  return deps.db.transaction().execute(async (trx) => {
    if (!(await operatorById(trx, operatorId))) throw refuse(ADMIN_CLIENT_MESSAGES.unknownOperator);
    const changed = await switchOperatorStatus(trx, { id: operatorId, from: 'disabled', to: 'active' });
    await recordAudit(
      trx,
      { operatorId: actor.operatorId, operatorRole: actor.role, action: 'operator.enable', reason: actor.reason, ticket: actor.ticket ?? null, address: actor.address, requestId: actor.requestId, detail: { target_operator_id: operatorId, changed } },
      now,
    );
    return { ...OK_RESPONSE, changed };
  });
}
