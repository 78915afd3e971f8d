import { PKCE_VERIFIER_PATTERN } from '@sso/contracts/fields';
import { constantTimeEqual, sha256Base64Url } from '../../lib/secrets.ts';

/** RFC 7636 section 4.6, S256 only: BASE64URL(SHA256(ASCII(code_verifier))) == code_challenge. */
export function verifyPkce(verifier: string | undefined, challenge: string): boolean {
  if (!verifier || !PKCE_VERIFIER_PATTERN.test(verifier)) return false;
  return constantTimeEqual(sha256Base64Url(verifier), challenge);
}
