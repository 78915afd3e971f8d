/**
 * The enrolment link is `/admin/enrol#token=…` (docs/decisions/0032-operator-identity.md): the token
 * rides in the fragment, which no request carries, so that no server's or proxy's log holds it.
 */

/** The token of a link's fragment (`#token=…`), or undefined when there is none that could be one. */
export function enrolmentTokenOf(hash: string): string | undefined {
  const token = new URLSearchParams(hash.replace(/^#/, '')).get('token');
  // 256 random bits in base64url are 43 characters; the contract takes up to 128.
  if (token === null || !/^[A-Za-z0-9_-]{1,128}$/.test(token)) return undefined;
  return token;
}
