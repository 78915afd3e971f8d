import { decodeJwt } from 'jose';
import { describe, expect, it } from 'vitest';
import { newId } from '../../lib/secrets.ts';
import { clientTokens, onetimeToken, PROOF, redeem } from '../../test-support/direct-login-kit.ts';
import { tokenRequest, VERIFIER, withTestApp, type TestApp } from '../../test-support/test-app.ts';
import { DIALECTS } from '../../test-support/test-db.ts';
import { insertFamily } from '../oauth/token-repo.ts';
import { issuePair } from '../oauth/tokens.ts';
import { subjectFor } from '../oidc/subject.ts';

/** A refresh of the session as its client sends it; its answer's ID token's claims. */
async function refreshedClaims(t: TestApp, refreshToken: string, clientId: string, terminalId: string) {
  const res = await tokenRequest(t.app, { grant_type: 'refresh_token', refresh_token: refreshToken, client_id: clientId, terminal_id: terminalId });
  expect(res.statusCode, res.body).toBe(200);
  const body = res.json() as { refresh_token: string; id_token?: string };
  return { refreshToken: body.refresh_token, claims: decodeJwt(body.id_token!) };
}

/**
 * `auth_time` across a direct-login hand-off (OpenID Connect Core 1.0 sections 2 and 12.2: the time
 * of the member's authentication, never of a token's use): the session a one-time token opens carries
 * the authentication of the session that asked for the token, hand-off after hand-off; where that is
 * unknown the claim is left out rather than made up.
 */
describe.each(DIALECTS)('auth_time after a direct login (%s)', (dialect) => {
  const t = withTestApp(dialect);

  it("carries the member's own sign-in through the hand-off and its refreshes, not the redemption's time", async () => {
    const signedInAt = Math.floor(t.clock.now() / 1000);
    const portal = await clientTokens(t, 'SIAP005');
    t.clock.advance(20 * 60_000);
    // The portal app hands the member to the web (its default target), which redeems the token later.
    const token = await onetimeToken(t, portal.access_token);
    t.clock.advance(30_000);
    const web = await redeem(t, token);
    expect(web.statusCode, web.body).toBe(200);
    t.clock.advance(5 * 60_000);
    const first = await refreshedClaims(t, web.json().refresh_token as string, 'SIAP009', 'terminal-dl');
    expect(first.claims.auth_time).toBe(signedInAt);
    // A hand-off authenticates no one: still no amr, no acr (decision 0025).
    expect(first.claims).not.toHaveProperty('amr');
    expect(first.claims).not.toHaveProperty('acr');
    // A portal app's own hand-off to itself (bound to its challenge, decision 0013) carries it too.
    const own = await onetimeToken(t, portal.access_token, { client_id: 'SIAP005', ...PROOF });
    const app = await redeem(t, own, { client_id: 'SIAP005', code_verifier: VERIFIER, terminal_id: 'terminal-app' });
    expect(app.statusCode, app.body).toBe(200);
    expect((await refreshedClaims(t, app.json().refresh_token as string, 'SIAP005', 'terminal-app')).claims.auth_time).toBe(signedInAt);
    t.clock.advance(60 * 60_000);
    expect((await refreshedClaims(t, first.refreshToken, 'SIAP009', 'terminal-dl')).claims.auth_time).toBe(signedInAt);

    // A session a hand-off opened hands on in turn (the web to another tab of the web): the same sign-in still.
    const webAccess = (await tokenRequest(t.app, { grant_type: 'refresh_token', refresh_token: first.refreshToken, client_id: 'SIAP009', terminal_id: 'terminal-dl' })).json().access_token as string;
    const again = await redeem(t, await onetimeToken(t, webAccess), { terminal_id: 'terminal-tab' });
    expect(again.statusCode, again.body).toBe(200);
    expect((await refreshedClaims(t, again.json().refresh_token as string, 'SIAP009', 'terminal-tab')).claims.auth_time).toBe(signedInAt);
  });

  it('leaves auth_time out of the ID token of a session whose authentication is unknown (a hand-off from a session that did not know it)', async () => {
    const web = { client_id: 'SIAP009', sector_identifier: 'member-id-apps' } as Parameters<typeof subjectFor>[0];
    const userId = 'demo-card-member';
    const familyId = newId();
    const db = t.testDb.db.kysely;
    const now = t.clock.now();
    // A direct login's session of before this change: the stored subject, no authentication context.
    await insertFamily(db, { id: familyId, user_id: userId, client_id: 'SIAP009', terminal_id: 't-unknown', scope: 'openid user:read', audience: 'member-api', created_at: now, revoked_at: null, proved_at: null, auth_time: null, amr: null, sso_session_id: null, subject: subjectFor(web, userId) });
    const pair = await issuePair(db, familyId, null, 'openid user:read', now);
    t.clock.advance(60_000);
    const { claims } = await refreshedClaims(t, pair.refresh_token!, 'SIAP009', 't-unknown');
    expect(claims).not.toHaveProperty('auth_time');
    expect(claims.sub).toBe(subjectFor(web, userId));
  });
});
