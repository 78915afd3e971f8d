import { authorizeParams, type OAuthClientRecord } from '../lib/records.ts';

/**
 * The error pages whose header logo has no link for a logged-out visitor (SPEC.md section 2: "Some
 * error pages show a logo with no link"): out of service, and the portal app that did not open
 * (C99-000600 asks the visitor to close the screen). A logged-in member gets the logged-in header
 * there as on every page, its logo to Top (SPEC.md section 2: the 503 and /problem/busy pages "use
 * the logged-in header if the user is logged in, otherwise the plain header").
 */
const PLAIN_LOGO_PATHS: readonly string[] = ['/503', '/problem/busy'];

/** Whether the header logo links (to login or Top) on this route path (relative to /content). */
export const logoLinks = (pathname: string, loggedIn: boolean) =>
  loggedIn || !PLAIN_LOGO_PATHS.includes(pathname.replace(/(?<=.)\/+$/, ''));

/**
 * Where the logged-out logo goes: the login route itself with the saved OAuth client's parameters
 * (SPEC.md section 2, "a logo linking to the login page"), not Welcome. Before a client is saved,
 * the bare login route, which goes through Welcome to make one (SPEC.md section 4).
 */
export const loginPath = (client: OAuthClientRecord | undefined) => (client ? `/authorize?${authorizeParams(client).toString()}` : '/authorize');
