import { BlockList, isIP } from 'node:net';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { RESULT } from '@sso/contracts/result-codes';
import { SERVER_MESSAGES } from '@sso/contracts/messages';
import type { Config } from '../config.ts';
import { AppError } from '../lib/app-error.ts';

/** The console's paths: its pages under /admin and its API under /api/admin. */
const CONSOLE = /^\/(?:api\/)?admin(?:[/?#]|$)/;

/**
 * The console path the request is for, however it is spelt, or undefined: the router decodes
 * percent-encoded characters before it matches (`/api/%61dmin/me` reaches `/api/admin/me`), so the
 * decoded path with repeated slashes made one is tested too, and the pattern of the route matched.
 */
function consolePath(request: FastifyRequest): string | undefined {
  const url = request.url;
  const query = url.indexOf('?');
  const raw = query < 0 ? url : url.slice(0, query);
  const routed = request.routeOptions?.url ?? '';
  // Without an escape or a repeated slash the decoded path is the raw one: two tests, as below.
  if (!raw.includes('%') && !raw.includes('//')) return [routed, raw].find((path) => CONSOLE.test(path));
  let decoded = raw;
  try {
    decoded = decodeURIComponent(raw);
  } catch {
    // A malformed escape: the router refuses the path; the raw one is tested.
  }
  return [routed, decoded.replace(/\/{2,}/g, '/'), raw].find((path) => CONSOLE.test(path));
}

/** The address ranges of ADMIN_ALLOWED_NETWORKS as one list; an IPv4 address seen as IPv4-mapped IPv6 is checked as IPv4. */
export function networkList(ranges: readonly string[]): (address: string) => boolean {
  const list = new BlockList();
  for (const range of ranges) {
    const [address = '', prefix] = range.split('/');
    const type = isIP(address) === 6 ? 'ipv6' : 'ipv4';
    if (prefix === undefined) list.addAddress(address, type);
    else list.addSubnet(address, Number(prefix), type);
  }
  return (raw) => {
    const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(raw)?.[1];
    const address = mapped ?? raw;
    const version = isIP(address);
    return version !== 0 && list.check(address, version === 6 ? 'ipv6' : 'ipv4');
  };
}

/** The Origin of a browser's request, when it sends one that is an origin ("null" is none of ours). */
const originOf = (request: FastifyRequest): string | undefined => {
  const value = request.headers.origin;
  return typeof value === 'string' ? value : undefined;
};

/**
 * The operator console's limits (decision 0032; docs/operations.md "The operator console's limits"),
 * before any route runs:
 * - ADMIN_ALLOWED_NETWORKS: a request to /admin or /api/admin from another address (the address
 *   TRUST_PROXY makes request.ip) is answered as an unknown path is, 404, so that the console's
 *   existence is not told to the other networks;
 * - ADMIN_ALLOWED_ORIGINS: a browser request to /api/admin carrying an Origin (RFC 6454 section 7)
 *   other than the console's own is refused, 403 with result 300, as is a cross-site one by Fetch
 *   Metadata: no other site's page may drive the operator API, whatever its token.
 */
export function registerAdminLimits(app: FastifyInstance, config: Pick<Config, 'adminAllowedOrigins' | 'adminAllowedNetworks'>): void {
  const allowed = config.adminAllowedNetworks ? networkList(config.adminAllowedNetworks) : undefined;
  const origins = new Set(config.adminAllowedOrigins);
  // Callback style, as the other hooks: an async hook costs every request a promise (decision 0008).
  app.addHook('onRequest', (request, reply, done) => {
    const path = consolePath(request);
    if (path === undefined) return done();
    if (allowed && !allowed(request.ip)) {
      // The 404 answer is sent: the request goes no further, so `done` is not called.
      reply.callNotFound();
      return;
    }
    if (!path.startsWith('/api/')) return done();
    const origin = originOf(request);
    const crossSite = request.headers['sec-fetch-site'] === 'cross-site';
    if ((origin !== undefined && !origins.has(origin)) || crossSite) {
      return done(new AppError(RESULT.ACCESS_DENIED, SERVER_MESSAGES.accessDenied, 403));
    }
    done();
  });
}
