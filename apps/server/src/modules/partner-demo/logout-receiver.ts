import { createRemoteJWKSet, jwtVerify } from 'jose';
import type { Clock } from '../../lib/clock.ts';
import { japanTime } from '../../lib/japan-time.ts';
import type { OAuthClient } from '../clients/clients.ts';
import type { DemoPage, Row } from './pages.ts';

/** The event of a logout token (OpenID Connect Back-Channel Logout 1.0 section 2.4), spelt out as a partner would. */
const LOGOUT_EVENT = 'http://schemas.openid.net/event/backchannel-logout';
/** Logout tokens a demo partner remembers, newest first. */
const KEPT = 20;

/** One logout token the partner accepted: when, and whose session (`sub`, and `sid` when one SSO session ended). */
export interface ReceivedLogout {
  at: number;
  sub: string | undefined;
  sid: string | undefined;
  jti: string;
}

/**
 * The demo partners' back-channel logout endpoint (decision 0006, "Partner services"; OpenID Connect
 * Back-Channel Logout 1.0 section 2.6), doing what a partner's server does with a logout token: it
 * verifies it against the issuer's JWK Set fetched over HTTP (jose, as any partner would), with the
 * issuer, its own client id as audience, `typ` logout+jwt, `iat`, `exp` and `jti`, the event, no
 * nonce, a `sid` or a `sub`, and a `jti` not seen before; then it keeps it for the demo pages. In
 * memory: a demo partner of one development node. The partner's clock is the server's, as two
 * systems set by NTP would agree (a test's clock moves both).
 */
export function logoutReceiver(deps: { issuer: string; clock: Clock }) {
  const jwks = createRemoteJWKSet(new URL('/api/auth/jwks', deps.issuer));
  const received = new Map<string, ReceivedLogout[]>();

  return {
    /** Verifies and keeps a logout token for `client`; the reason it is refused otherwise (the endpoint answers 400). */
    async receive(client: OAuthClient, logoutToken: string | undefined): Promise<{ ok: true } | { ok: false; reason: string }> {
      if (!logoutToken) return { ok: false, reason: 'logout_token is missing' };
      try {
        const { payload } = await jwtVerify(logoutToken, jwks, {
          issuer: deps.issuer,
          audience: client.client_id,
          typ: 'logout+jwt',
          requiredClaims: ['iat', 'exp', 'jti', 'events'],
          // A token made for this delivery: minutes old at most, with half a minute of clock skew.
          maxTokenAge: 300,
          clockTolerance: 30,
          currentDate: new Date(deps.clock.now()),
        });
        const events = payload.events as Record<string, unknown> | undefined;
        const event = events?.[LOGOUT_EVENT];
        if (typeof event !== 'object' || event === null) return { ok: false, reason: 'no back-channel logout event' };
        if ('nonce' in payload) return { ok: false, reason: 'a logout token carries no nonce' };
        const sid = typeof payload.sid === 'string' ? payload.sid : undefined;
        if (!sid && !payload.sub) return { ok: false, reason: 'neither sid nor sub' };
        const list = received.get(client.client_id) ?? [];
        if (list.some((r) => r.jti === payload.jti)) return { ok: false, reason: 'jti already received' };
        received.set(client.client_id, [{ at: deps.clock.now(), sub: payload.sub, sid, jti: String(payload.jti) }, ...list].slice(0, KEPT));
        return { ok: true };
      } catch {
        // jose's reason (signature, issuer, audience, type, times) stays with the partner.
        return { ok: false, reason: 'the logout token did not verify' };
      }
    },

    /** What the partner has received, newest first. */
    receivedBy: (clientId: string): readonly ReceivedLogout[] => received.get(clientId) ?? [],
  };
}

export type LogoutReceiver = ReturnType<typeof logoutReceiver>;

/** The rows of a page that lists the back-channel logouts a partner received. */
const logoutRows = (list: readonly ReceivedLogout[]): Row[] =>
  list.flatMap((r, i): Row[] => [
    [`${i + 1}. 受け取った日時`, japanTime(r.at)],
    [`${i + 1}. sub`, r.sub ?? '（なし）'],
    [`${i + 1}. sid`, r.sid ?? '（なし：この会員のすべてのセッション）'],
  ]);

/** The partner's page of back-channel logouts: what it received from the issuer's server, without the member in the browser. */
export function logoutsPage(client: OAuthClient, list: readonly ReceivedLogout[]): DemoPage {
  const latest = list[0];
  return latest
    ? {
        service: client.name,
        heading: 'ログアウトを受け取りました',
        ok: true,
        lead: `メンバーIDからバックチャネルログアウトを受け取り、会員のセッションを終了しました（最新：${japanTime(latest.at)}）。`,
        rows: logoutRows(list),
      }
    : { service: client.name, heading: 'ログアウトはまだ受け取っていません', ok: false, lead: 'メンバーIDからのバックチャネルログアウトはありません。', rows: [] };
}

/** Where an RP-initiated logout returns the member (post_logout_redirect_uri): the state it got back, and the back-channel logouts so far. */
export function loggedOutPage(client: OAuthClient, state: string | undefined, list: readonly ReceivedLogout[]): DemoPage {
  return {
    service: client.name,
    heading: 'ログアウトしました',
    ok: true,
    lead: 'メンバーIDでのログアウトから戻りました。',
    rows: [['state', state ?? '（なし）'], ...logoutRows(list)],
  };
}
