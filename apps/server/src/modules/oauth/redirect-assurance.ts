/**
 * Whether a redirect URI ties the client to its owner (RFC 8252 section 8.6): an authorization server
 * should not process an authorization request automatically, without the member's interaction,
 * for a client whose identity it cannot assure. A custom URL scheme (`siap005portal://…`) can be
 * registered by any app on the phone (RFC 8252 sections 7.1 and 8.1), and a loopback address can be
 * listened on by any program on the machine (section 7.3): a code sent there may reach an app that
 * only claims to be the client. An https address is the owner's (its host is theirs); so is this
 * server's own origin, whatever its scheme (the SPA's callback and the demo partner pages in
 * development). Decision 0027.
 */
export function assuresClient(issuer: string, redirectUri: string): boolean {
  let url: URL;
  try {
    url = new URL(redirectUri);
  } catch {
    return false;
  }
  if (url.origin === new URL(issuer).origin) return true;
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return false;
  return !isLoopback(url.hostname) && url.protocol === 'https:';
}

const isLoopback = (host: string) => host === 'localhost' || host.endsWith('.localhost') || host === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(host);
