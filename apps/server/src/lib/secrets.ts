import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';

/** An opaque random value for codes and tokens: 256 bits, base64url. */
export const randomToken = (bytes = 32): string => randomBytes(bytes).toString('base64url');

export const newId = (): string => randomUUID();

/** Secrets with 256 bits of entropy are stored as their SHA-256; low-entropy ones (passwords) use argon2id. */
export const sha256 = (value: string): string => createHash('sha256').update(value, 'utf8').digest('hex');

export const sha256Base64Url = (value: string): string =>
  createHash('sha256').update(value, 'ascii').digest('base64url');

/** Constant-time string comparison (both sides hashed first so lengths never leak). */
export function constantTimeEqual(a: string, b: string): boolean {
  const ha = createHash('sha256').update(a).digest();
  const hb = createHash('sha256').update(b).digest();
  return timingSafeEqual(ha, hb);
}
