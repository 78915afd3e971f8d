import { hash, verify } from '@node-rs/argon2';
import { argon2Work } from './metrics.ts';

/** argon2id with the OWASP minimum (19 MiB, t=2, p=1). */
/** Algorithm.Argon2id is an ambient const enum (value 2), which isolated modules cannot read. */
const ARGON2ID = 2;
const OPTIONS = { algorithm: ARGON2ID, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

/** Each hash and verification runs on the libuv thread pool, counted while it runs (lib/metrics.ts sso_argon2_operations). */
export const hashPassword = (password: string) => argon2Work(() => hash(password, OPTIONS));

let dummyHash: Promise<string> | undefined;
let verifications = 0;

/** The argon2id verifications this process has run: the tests and the benchmark count one per login (docs/performance.md). */
export const passwordVerifications = (): number => verifications;

/**
 * Verifies against the stored hash, or against a dummy hash when there is no account, so that an
 * unknown id costs the same time as a wrong password and timing does not reveal members.
 */
export async function verifyPassword(storedHash: string | undefined, password: string): Promise<boolean> {
  dummyHash ??= hashPassword('dummy-password-for-timing-0');
  const target = storedHash ?? (await dummyHash);
  verifications++;
  try {
    const ok = await argon2Work(() => verify(target, password));
    return ok && storedHash !== undefined;
  } catch {
    return false;
  }
}
