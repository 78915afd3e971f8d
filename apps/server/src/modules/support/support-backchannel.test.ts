import * as client from 'openid-client';
import { describe, expect, it } from 'vitest';
import type { ListeningApp } from '../../test-support/listening-app.ts';
import { relyingParty, signIn } from '../../test-support/oidc-kit.ts';
import { newMember } from '../../test-support/recover-kit.ts';
import { DIALECTS } from '../../test-support/test-db.ts';
import { withListeningApp } from '../../test-support/vitest.ts';
import { endMemberSessionsBySupport, suspendMember } from './member-actions.ts';
import type { OperatorAction, SupportDeps } from './support-deps.ts';

const SCOPE = 'openid user:read profile email';
const SUPPORT: OperatorAction = { operatorId: 'op-bc', role: 'support', address: '192.0.2.20', requestId: 'req-bc', reason: '端末の紛失' };
const SECURITY: OperatorAction = { ...SUPPORT, role: 'security', reason: '不正利用の疑い' };

/** Waits until `check` holds, as a partner waits for the server's outbox; fails after `ms`. */
async function eventually(check: () => Promise<boolean>, ms = 8000): Promise<void> {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error('not within the time');
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The demo partner's page of the back-channel logouts it took (modules/partner-demo). */
const logoutsPage = async (t: ListeningApp, clientId: string) => (await fetch(`${t.origin}/dev/partner/${clientId}/backchannel_logout`)).text();

/**
 * The support desk's ending of a member's sessions, and a suspension, tell the partners (OpenID Connect
 * Back-Channel Logout 1.0) through the session-ending kernel, and the partner's introspection (RFC 7662)
 * finds its token inactive.
 */
describe.each(DIALECTS)('support actions tell the partners (%s)', (dialect) => {
  const t = withListeningApp(dialect);
  const deps = (): SupportDeps => ({ db: t.testDb.db.kysely, clock: t.clock, issuer: t.origin, notifier: { send: async () => undefined }, cardMaster: { cardsByEndingAndBirthday: async () => [] } });

  for (const [name, act] of [
    ['ending the sessions', (id: string) => endMemberSessionsBySupport(deps(), SUPPORT, id)],
    ['a suspension', (id: string) => suspendMember(deps(), SECURITY, id)],
  ] as const) {
    it(`${name}: the partner's token answers inactive and the partner receives the back-channel logout`, async () => {
      const member = await newMember(t);
      const config = await relyingParty(t.origin, 'SIAP004');
      const { tokens, claims } = await signIn(config, { origin: t.origin, scope: SCOPE, user: member.email, password: member.password });
      expect((await client.tokenIntrospection(config, tokens.access_token)).active).toBe(true);
      await act(member.id);
      expect((await client.tokenIntrospection(config, tokens.access_token)).active).toBe(false);
      await eventually(async () => (await logoutsPage(t, 'SIAP004')).includes(claims.sub));
    });
  }
});
