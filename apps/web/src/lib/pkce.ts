/** PKCE (RFC 7636; SPEC.md section 5): verifier of 43-128 unreserved characters, S256 challenge. */
const VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;

const base64Url = (bytes: Uint8Array) =>
  btoa(String.fromCharCode(...bytes)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

export function randomString(bytes = 32): string {
  return base64Url(crypto.getRandomValues(new Uint8Array(bytes)));
}

export async function challengeFor(verifier: string): Promise<string> {
  if (!VERIFIER.test(verifier)) throw new Error('PKCE verifier must be 43-128 characters of A-Z a-z 0-9 - . _ ~');
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier));
  return base64Url(new Uint8Array(digest));
}

export async function newPkcePair(): Promise<{ codeVerifier: string; codeChallenge: string }> {
  const codeVerifier = randomString(48);
  return { codeVerifier, codeChallenge: await challengeFor(codeVerifier) };
}
