import type { KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs, QueryResult, RootOperationNode, UnknownRow } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { newId } from '../../lib/secrets.ts';
import { readAudit } from '../audit/audit.ts';
import { openClientStore, type ClientStore } from '../clients/client-store.ts';
import { findClientRow } from '../clients/client-repo.ts';
import { TEST_ORIGIN } from '../../test-support/test-app.ts';
import { DIALECTS } from '../../test-support/test-db.ts';
import { withTestApp } from '../../test-support/vitest.ts';
import * as admin from './admin-service.ts';
import type { AdminActor, AdminServiceDeps } from './admin-service.ts';
import { insertOperator } from './operator-repo.ts';

/*
 * The administrator's services (decisions 0031 and 0032): a change and its audit row are one
 * transaction, and the last active administrator stays, also when two disable each other at once.
 */

const ACTOR: AdminActor = { operatorId: 'op-admin-x', role: 'admin', address: '192.0.2.20', requestId: 'req-admin-x', reason: '提携先からの申請', ticket: 'INC-7' };

/** A database whose every insert into audit_log fails, as a full disk or a lost connection would fail it. */
class AuditInsertFails implements KyselyPlugin {
  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    const node = args.node;
    if (node.kind === 'InsertQueryNode' && node.into?.table.identifier.name === 'audit_log') throw new Error('audit_log is unavailable');
    return node;
  }
  transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return Promise.resolve(args.result);
  }
}

const partner = (clientId: string) => ({
  client_id: clientId,
  name: `提携サービス ${clientId}`,
  type: 'confidential',
  redirect_uris: [`${TEST_ORIGIN}/dev/partner/${clientId}/callback`],
  scopes: ['openid', 'user:read'],
  audience: ['SIAP004'],
});

describe.each(DIALECTS)('the administrator services (%s)', (dialect) => {
  const t = withTestApp(dialect);
  let clients: ClientStore;
  beforeAll(async () => {
    clients = await openClientStore({ db: t.testDb.db.kysely, clock: t.clock, publicOrigin: TEST_ORIGIN, refreshMs: 60_000 });
  });
  afterAll(async () => clients.close());
  const deps = (db: Kysely<Database> = t.testDb.db.kysely): AdminServiceDeps => ({ db, clock: t.clock, clients, publicOrigin: TEST_ORIGIN });
  const broken = () => deps(t.testDb.db.kysely.withPlugin(new AuditInsertFails()));
  const audited = async (clientId: string) => (await readAudit(t.testDb.db.kysely, { clientId })).records.map((r) => r.action).sort();

  it('a client change whose audit row fails is not made: register, update, disable, rotate and retire leave the client as it was', async () => {
    const id = `TXAUDIT${newId().slice(0, 6)}`;
    await expect(admin.registerClientAs(broken(), ACTOR, partner(id))).rejects.toThrow('audit_log is unavailable');
    expect(await findClientRow(t.testDb.db.kysely, id)).toBeUndefined();

    await admin.registerClientAs(deps(), ACTOR, partner(id));
    const before = await findClientRow(t.testDb.db.kysely, id);
    const secrets = () => t.testDb.db.kysely.selectFrom('oauth_client_secrets').select(['id', 'retire_at']).where('client_id', '=', id).orderBy('id').execute();
    const secretsBefore = await secrets();

    await expect(admin.updateClientAs(broken(), ACTOR, id, { name: '変えてはならない名前' })).rejects.toThrow('audit_log is unavailable');
    await expect(admin.setClientEnabledAs(broken(), ACTOR, id, false)).rejects.toThrow('audit_log is unavailable');
    await expect(admin.rotateClientSecretAs(broken(), ACTOR, id, undefined)).rejects.toThrow('audit_log is unavailable');
    expect(await findClientRow(t.testDb.db.kysely, id)).toEqual(before);
    expect(await secrets()).toEqual(secretsBefore);
    expect(clients.get(id)?.name).toBe(`提携サービス ${id}`);

    await admin.rotateClientSecretAs(deps(), ACTOR, id, undefined);
    const rotated = await secrets();
    await expect(admin.retireClientSecretsAs(broken(), ACTOR, id)).rejects.toThrow('audit_log is unavailable');
    expect(await secrets()).toEqual(rotated);
    expect(await audited(id)).toEqual(['client.create', 'client.rotate_secret']);
  });

  it('a client change with its audit row commits both', async () => {
    const id = `TXBOTH${newId().slice(0, 6)}`;
    await admin.registerClientAs(deps(), ACTOR, partner(id));
    await admin.updateClientAs(deps(), ACTOR, id, { name: '新しい名前' });
    await admin.setClientEnabledAs(deps(), ACTOR, id, false);
    expect(await findClientRow(t.testDb.db.kysely, id)).toMatchObject({ enabled: 0 });
    expect(await audited(id)).toEqual(['client.create', 'client.disable', 'client.update']);
  });

  it("a client update audits only the fields whose value changed, the method's and the flags' old and new values (decision 0040)", async () => {
    const id = `TXFIELDS${newId().slice(0, 6)}`;
    await admin.registerClientAs(deps(), ACTOR, { ...partner(id), token_endpoint_auth_method: 'client_secret_basic' });
    const { client_id: _id, ...same } = partner(id);
    // What the console sends on every edit: every field, as it is, but the one the operator changed.
    const everyField = {
      name: same.name,
      redirect_uris: same.redirect_uris,
      post_logout_redirect_uris: [],
      backchannel_logout_uri: null,
      scopes: same.scopes,
      terms: [],
      web_origins: [],
      token_endpoint_auth_method: 'client_secret_basic',
      jwks: null,
      jwks_uri: null,
      id_token_signed_response_alg: 'RS256',
      userinfo_signed_response_alg: null,
      require_pushed_authorization_requests: false,
      dpop_bound_access_tokens: false,
    };
    // Newest first: each change a second after the last, so that the order is not the ids'.
    const lastDetail = async () => (await readAudit(t.testDb.db.kysely, { clientId: id, action: 'client.update' })).records[0]?.detail;
    t.clock.advance(1000);
    await admin.updateClientAs(deps(), ACTOR, id, { ...everyField, dpop_bound_access_tokens: true });
    expect(await lastDetail()).toEqual({ fields: ['dpop_bound_access_tokens'], changes: { dpop_bound_access_tokens: { from: false, to: true } } });

    t.clock.advance(1000);
    await admin.updateClientAs(deps(), ACTOR, id, { ...everyField, name: '新しい名前', token_endpoint_auth_method: 'client_secret_post', require_pushed_authorization_requests: true });
    expect(await lastDetail()).toEqual({
      fields: ['name', 'token_endpoint_auth_method', 'require_pushed_authorization_requests', 'dpop_bound_access_tokens'],
      changes: {
        token_endpoint_auth_method: { from: 'client_secret_basic', to: 'client_secret_post' },
        require_pushed_authorization_requests: { from: false, to: true },
        dpop_bound_access_tokens: { from: true, to: false },
      },
    });

    // Nothing changed: still audited as asked, with no field.
    t.clock.advance(1000);
    await admin.updateClientAs(deps(), ACTOR, id, { ...everyField, name: '新しい名前', token_endpoint_auth_method: 'client_secret_post', require_pushed_authorization_requests: true });
    expect(await lastDetail()).toEqual({ fields: [] });
  });

  it('two administrators disabling each other at once leave one of them active', async () => {
    const db = t.testDb.db.kysely;
    for (let round = 0; round < 5; round++) {
      // Only these two are active administrators.
      await db.updateTable('operators').set({ status: 'disabled' }).where('role', '=', 'admin').execute();
      const [a, b] = [newId(), newId()];
      for (const id of [a, b]) {
        await insertOperator(db, { id, email: `${id}@example.com`, display_name: '管理者', role: 'admin', status: 'active', created_at: t.clock.now(), created_by: 'bootstrap' });
      }
      const results = await Promise.allSettled([admin.disableOperator(deps(), { ...ACTOR, operatorId: a }, b), admin.disableOperator(deps(), { ...ACTOR, operatorId: b }, a)]);
      const active = await db.selectFrom('operators').select('id').where('role', '=', 'admin').where('status', '=', 'active').execute();
      expect(active, `round ${round}`).toHaveLength(1);
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    }
  });
});
