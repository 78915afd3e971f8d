import { toHalfWidth } from '@sso/contracts/fields';
import { lookupDigest } from '../../lib/secrets.ts';

/** A login id is an e-mail address or a mobile number (SPEC.md section 1). */
export function parseLoginId(raw: string): { email?: string; tel?: string } {
  const s = toHalfWidth(raw).trim();
  if (s.includes('@')) return { email: s.toLowerCase() };
  return { tel: s.replace(/[-\s]/g, '') };
}

/** The throttle key: a keyed digest of the normalised id, so that the throttle table stores no address. */
export const throttleKey = (id: { email?: string; tel?: string }) => lookupDigest(id.email !== undefined ? `email:${id.email}` : `tel:${id.tel ?? ''}`);
