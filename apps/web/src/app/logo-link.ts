/**
 * The error pages whose header logo has no link (SPEC.md section 2: "Some error pages show a logo
 * with no link"): out of service, and the portal app that did not open (C99-000600 asks the member
 * to close the screen). There is nowhere inside the product to go back to from either.
 */
const PLAIN_LOGO_PATHS: readonly string[] = ['/503', '/problem/busy'];

/** Whether the header logo links to login or Top on this route path (relative to /content). */
export const logoLinks = (pathname: string) => !PLAIN_LOGO_PATHS.includes(pathname.replace(/(?<=.)\/+$/, ''));
