import { createHash } from 'node:crypto';
import { toHalfWidth } from '@sso/contracts/fields';

/** A login id is an e-mail address or a mobile number (SPEC.md section 1). */
export function parseLoginId(raw: string): { email?: string; tel?: string } {
  const s = toHalfWidth(raw).trim();
  if (s.includes('@')) return { email: s.toLowerCase() };
  return { tel: s.replace(/[-\s]/g, '') };
}

/** The throttle key: a hash of the normalised id, so that the throttle table stores no address. */
export const throttleKey = (id: { email?: string; tel?: string }) =>
  createHash('sha256').update(id.email !== undefined ? `email:${id.email}` : `tel:${id.tel ?? ''}`).digest('hex');
