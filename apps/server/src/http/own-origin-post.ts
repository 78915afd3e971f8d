import type { FastifyRequest } from 'fastify';

/** The origin of a header's URL (`Origin`, `Referer`), or undefined when it is none ("null", garbage). */
function originOf(value: string | undefined): string | undefined {
  if (!value || value === 'null') return undefined;
  try {
    return new URL(value).origin;
  } catch {
    return undefined;
  }
}

/**
 * Whether a browser's post provably comes from a page of this server's own origin, the issuer's
 * (`PUBLIC_ORIGIN`): the one test of the posts that sign a member in, start or end a session (login
 * CSRF, RFC 9700 section 4.7; logout CSRF). In this order, the first the browser sends decides:
 * - Fetch Metadata (`Sec-Fetch-Site`, sent by every current browser): `same-origin` only. A
 *   `same-site` page (a sibling host) or a user's own navigation (`none`) is no page of ours;
 * - `Origin` (RFC 6454 section 7), which browsers without Fetch Metadata (Safari before 16.4, Firefox
 *   before 90) send with a post: the issuer's origin. The SPA's referrer policy
 *   (strict-origin-when-cross-origin, security-headers.ts) keeps it from being `null` on its own posts;
 * - `Referer`, for the older browsers that sent no Origin on a same-origin form post (Firefox before
 *   70): its origin is the issuer's.
 * A post with none of them proves nothing (not a browser, or one that strips both headers) and is
 * refused as a cross-site post is: the SPA's own posts always carry one.
 */
export function postedFromOwnOrigin(request: FastifyRequest, issuer: string): boolean {
  const own = new URL(issuer).origin;
  const site = request.headers['sec-fetch-site'];
  if (site !== undefined) return site === 'same-origin';
  const origin = request.headers.origin;
  if (origin !== undefined) return originOf(origin) === own;
  return originOf(request.headers.referer) === own;
}
