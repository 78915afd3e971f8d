import type { FastifyReply, FastifyRequest } from 'fastify';
import { LIMITS } from '@sso/contracts/constants';
import { heldRandomCookie, readCookie, setCookie } from '../../http/cookies.ts';
import { randomToken } from '../../lib/secrets.ts';
import { postedFromOwnOrigin } from '../../http/own-origin-post.ts';
import { describeDevice } from '../../lib/device.ts';
import { DEVICE_COOKIE, DEVICE_COOKIE_MAX_AGE_S } from '../account/new-device-notice.ts';

/**
 * The SSO session's cookie (docs/decisions/0026-sso-session.md): `<session id>.<256-bit secret>`,
 * HttpOnly, SameSite=Lax (a partner's link, a top-level GET, carries it; another site's post does
 * not), Secure when the issuer is https, on path /api/auth, where the authorize endpoints (GET and
 * POST), their check, the logout and OpenID Connect's end_session are. It is kept 400 days
 * (LIMITS.ssoCookieMaxAgeMs, the longest a browser keeps one) and given again at every use of the
 * session from the browser (renewSsoCookie); the server decides the sliding expiry.
 */
export const SSO_COOKIE = 'sso_session';
const PATH = '/api/auth';
const VALUE = /^([0-9a-f-]{36})\.([A-Za-z0-9_-]{43})$/;

const attributes = (secure: boolean) => ({ path: PATH, sameSite: 'lax' as const, secure, httpOnly: true });

/**
 * The browser a request comes from, as far as its SSO session goes: the session cookie it holds
 * (well-formed, else none), its device cookie (account/new-device-notice.ts), to which a session is
 * bound, and the kind of browser it says it is (lib/device.ts).
 */
export interface Browser {
  session: { id: string; secret: string } | undefined;
  /** undefined: the browser holds none; null: a post not proved to come from the SPA (a cross-site one), whose browser is not the member's (RFC 9700 section 4.7). */
  deviceCookie: string | null | undefined;
  device: string | null;
  /** The request's network address (request.ip: with TRUST_PROXY, the forwarded one), for the session's record. */
  address: string | null;
}

const heldSession = (request: FastifyRequest): Browser['session'] => {
  const match = VALUE.exec(readCookie(request, SSO_COOKIE) ?? '');
  return match ? { id: match[1]!, secret: match[2]! } : undefined;
};

/** The browser of a request that reads its session and sets nothing (the GET authorize endpoint, the check, the logout). */
export function browserOf(request: FastifyRequest): Browser {
  return {
    session: heldSession(request),
    deviceCookie: heldRandomCookie(request, DEVICE_COOKIE),
    device: describeDevice(request.headers['user-agent']),
    address: request.ip ?? null,
  };
}

/**
 * The browser of a login (the authorize form's post, the end of a sign-up), which may start a session:
 * its device cookie, set now when it has none. A post not proved to come from the issuer's own origin
 * (http/own-origin-post.ts: Fetch Metadata, else Origin, else Referer; a login CSRF, or any page but
 * the SPA) is set nothing and starts no session: a forged login leaves no state in the browser (RFC
 * 9700 section 4.7); its device cookie is null.
 */
export function signInBrowserOf(request: FastifyRequest, reply: FastifyReply, issuer: string): Browser {
  const held = browserOf(request);
  if (!postedFromOwnOrigin(request, issuer)) return { ...held, deviceCookie: null };
  const secure = issuer.startsWith('https:');
  const deviceCookie = held.deviceCookie ?? randomToken(32);
  giveDeviceCookie(reply, deviceCookie, secure);
  return { ...held, deviceCookie };
}

/**
 * Gives the browser its device cookie (a new one, or the one it holds, for 400 days again): a session
 * is bound to it, so it is given again at every sign-in and every use of the session, and a session
 * that slides on (SPEC.md section 9) never outlives the cookie of an older sign-in.
 */
function giveDeviceCookie(reply: FastifyReply, value: string, secure: boolean): void {
  setCookie(reply, DEVICE_COOKIE, value, { path: PATH, sameSite: 'lax', secure, httpOnly: true, maxAge: DEVICE_COOKIE_MAX_AGE_S });
}

/** Gives the browser its session's cookie. */
export function setSsoCookie(reply: FastifyReply, value: string, secure: boolean): void {
  setCookie(reply, SSO_COOKIE, value, { ...attributes(secure), maxAge: Math.floor(LIMITS.ssoCookieMaxAgeMs / 1000) });
}

/**
 * Gives the browser its session's cookie and its device cookie again, as it holds them, when a code
 * came from the session: a session in use never outlives them, however long it slides on (SPEC.md
 * section 9).
 */
export function renewSsoCookie(reply: FastifyReply, browser: Browser, secure: boolean): void {
  if (!browser.session) return;
  setSsoCookie(reply, ssoCookieValue(browser.session.id, browser.session.secret), secure);
  if (browser.deviceCookie) giveDeviceCookie(reply, browser.deviceCookie, secure);
}

/** Takes the session's cookie away (a logout). */
export function clearSsoCookie(reply: FastifyReply, secure: boolean): void {
  setCookie(reply, SSO_COOKIE, '', { ...attributes(secure), maxAge: 0 });
}

export const ssoCookieValue = (id: string, secret: string) => `${id}.${secret}`;
