import { toHalfWidth } from '@sso/contracts/fields';

/** A login id is an e-mail address or a mobile number (SPEC.md section 1). */
export function parseLoginId(raw: string): { email?: string; tel?: string } {
  const s = toHalfWidth(raw).trim();
  if (s.includes('@')) return { email: s.toLowerCase() };
  return { tel: s.replace(/[-\s]/g, '') };
}
