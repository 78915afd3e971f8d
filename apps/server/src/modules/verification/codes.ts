import { randomInt } from 'node:crypto';
import { LIMITS } from '@sso/contracts/constants';
import { randomToken, sha256 } from '../../lib/secrets.ts';
import { hashPassword } from '../../lib/passwords.ts';

/**
 * OTPs and PINs have 10^6 and 10^4 values: a plain SHA-256 of one is reversed in milliseconds, so
 * they are stored as argon2id hashes like passwords, which also compares in constant time.
 */
export const hashSecret = (secret: string) => hashPassword(secret);

/** A new code ready to store: the code for the message and its hash for the database. */
export async function newCode(): Promise<{ code: string; hash: string }> {
  const code = randomInt(0, 10 ** LIMITS.otpLength).toString().padStart(LIMITS.otpLength, '0');
  return { code, hash: await hashSecret(code) };
}

/** A new single-use token (256 random bits) and its SHA-256: the bits cannot be guessed, and the digest finds the row by index. */
export function newToken(): { token: string; hash: string } {
  const token = randomToken();
  return { token, hash: sha256(token) };
}
