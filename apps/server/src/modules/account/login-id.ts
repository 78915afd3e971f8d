import { createHash } from 'node:crypto';

/** Full-width ASCII to half-width (SPEC.md section 5, input conversion). */
export const toHalfWidth = (s: string) =>
  s.replace(/[\uFF01-\uFF5E]/g, (c) => String.fromCharCode(c.charCodeAt(0) - 0xfee0)).replace(/\u3000/g, ' ');

/** A login id is an e-mail address or a mobile number (SPEC.md section 1). */
export function parseLoginId(raw: string): { email?: string; tel?: string } {
  const s = toHalfWidth(raw).trim();
  if (s.includes('@')) return { email: s.toLowerCase() };
  return { tel: s.replace(/[-\s]/g, '') };
}

/** The throttle key: a hash of the normalised id, so that the throttle table stores no address. */
export const throttleKey = (id: { email?: string; tel?: string }) =>
  createHash('sha256').update(id.email !== undefined ? `email:${id.email}` : `tel:${id.tel ?? ''}`).digest('hex');
