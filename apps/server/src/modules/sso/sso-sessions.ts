import type { Kysely } from 'kysely';
import { LIMITS } from '@sso/contracts/constants';
import type { Database } from '../../db/schema.ts';
import type { Clock } from '../../lib/clock.ts';
import { constantTimeEqual, lookupDigest, newId, randomToken, sha256 } from '../../lib/secrets.ts';
import { logActivity } from '../activity/activity-repo.ts';
import type { SessionStart } from '../oauth/authorize-service.ts';
import { endSsoSessions } from './end-sso-sessions.ts';
import type { Browser } from './sso-cookie.ts';
import { ssoCookieValue } from './sso-cookie.ts';
import { findSsoSession, insertSsoSession, reauthenticateSsoSession, ssoSessionExpiry as expiryFrom, touchSsoSession, type SsoSessionRow } from './sso-session-repo.ts';

/**
 * The browser's SSO session (docs/decisions/0026-sso-session.md): found from its cookie, started or
 * renewed by a login, used by the authorize requests of any client.
 */
export interface SsoDeps {
  db: Kysely<Database>;
  clock: Clock;
}

/** How a session knows its browser: a keyed digest of the browser's device cookie, never the cookie itself. */
const browserBinding = (deviceCookie: string) => lookupDigest(`sso-browser:${deviceCookie}`);


/**
 * The browser's live session: its cookie's secret matches (constant time, against the SHA-256 kept),
 * it is bound to this browser's device cookie and to this kind of browser, and it has neither ended
 * nor lapsed (90 days from its last use). Anything else is no session, alike.
 */
export async function liveSsoSession(deps: SsoDeps, browser: Browser): Promise<SsoSessionRow | undefined> {
  const held = browser.session;
  if (!held || !browser.deviceCookie) return undefined;
  const row = await findSsoSession(deps.db, held.id);
  if (!row) return undefined;
  const now = deps.clock.now();
  const secretOk = constantTimeEqual(row.secret_hash, sha256(held.secret));
  const browserOk = constantTimeEqual(row.browser_hash, browserBinding(browser.deviceCookie)) && row.device === browser.device;
  const live = row.ended_at === null && row.expires_at > now;
  return secretOk && browserOk && live ? row : undefined;
}

/**
 * Records a use of the session for a client: its last use and sliding expiry, written at most once
 * in LIMITS.ssoSessionTouchMs for the same client (the authorize requests of a busy browser cost no
 * write each), at once for another client (the list says where it was last used).
 */
export async function touchSession(deps: SsoDeps, session: SsoSessionRow, clientId: string, address: string | null = null): Promise<void> {
  const now = deps.clock.now();
  if (session.last_client_id === clientId && now - session.last_used_at < LIMITS.ssoSessionTouchMs) return;
  await touchSsoSession(deps.db, { id: session.id, now, clientId, expiresAt: expiryFrom(now), address });
}

/** What a login does with the browser's session: a SessionStart for the code, and the cookie to set once the code is in. */
export interface SignIn extends SessionStart {
  /** The session cookie's value after `save` started or renewed one; undefined: set nothing. */
  cookie(): string | undefined;
}

/**
 * The SSO session a login starts (decision 0026), for the browser of the login's post (sso-cookie.ts
 * signInBrowserOf), with its session as it holds it now (`held`, liveSsoSession):
 * - a cross-site post (no device cookie) starts none: a forged login leaves nothing (RFC 9700 section 4.7);
 * - the member's own live session is renewed: the new authentication (`auth_time`, `amr`: a
 *   `prompt=login` or an exceeded `max_age`) and a new secret, the same `sid`, its tokens kept;
 * - otherwise a new session starts; another member's session held by the browser ends, with its
 *   tokens (one member per browser: the browser signed in as someone else), logged to that member.
 * `save` runs inside the transaction that issues the code, after the member's row is held
 * (issueCodeRedirect), so that an ending event at the same moment ends the session or is seen first.
 */
export function signIn(deps: SsoDeps, browser: Browser, held: SsoSessionRow | undefined): SignIn {
  let cookie: string | undefined;
  const deviceCookie = browser.deviceCookie;
  return {
    cookie: () => cookie,
    async save(db, p) {
      if (!deviceCookie) return null;
      const secret = randomToken();
      const amr = p.amr.join(' ');
      if (held?.user_id === p.userId) {
        const renewed = await reauthenticateSsoSession(db, {
          id: held.id,
          userId: p.userId,
          secretHash: sha256(secret),
          authTime: p.authTime,
          amr,
          clientId: p.clientId,
          expiresAt: expiryFrom(p.authTime),
          address: browser.address,
        });
        if (renewed) {
          cookie = ssoCookieValue(held.id, secret);
          return held.id;
        }
      } else if (held) {
        if ((await endSsoSessions(db, { userId: held.user_id, sessionIds: [held.id], at: p.authTime })).length > 0) {
          await logActivity(db, { userId: held.user_id, event: 'sso_session_ended', device: browser.device, at: p.authTime });
        }
      }
      const id = newId();
      await insertSsoSession(db, {
        id,
        user_id: p.userId,
        secret_hash: sha256(secret),
        browser_hash: browserBinding(deviceCookie),
        device: browser.device,
        auth_time: p.authTime,
        amr,
        created_at: p.authTime,
        last_used_at: p.authTime,
        last_client_id: p.clientId,
        expires_at: expiryFrom(p.authTime),
        ended_at: null,
        address: browser.address,
      });
      cookie = ssoCookieValue(id, secret);
      return id;
    },
  };
}
