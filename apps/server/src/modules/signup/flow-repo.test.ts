import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMigratedTestDb, DIALECTS, type TestDb } from '../../test-support/test-db.ts';
import { emailOtpFlow } from '../../test-support/signup-kit.ts';
import { advanceSignupFlow, insertFlow } from './flow-repo.ts';
import { consumeVerification, insertVerification, takeTry } from '../verification/verification-repo.ts';

const T0 = Date.UTC(2026, 0, 1);

const flow = (id: string) => emailOtpFlow(id, T0, 60_000);

/**
 * The two conditional updates the sign-up steps rest on, each on its own: the services use both, so
 * that either alone still stops a second pass; these tests keep each one honest.
 */
describe.each(DIALECTS)('sign-up flow and secret updates (%s)', (dialect) => {
  let t: TestDb;
  beforeAll(async () => {
    t = await createMigratedTestDb(dialect);
  });
  afterAll(async () => t?.drop());

  it('moves a flow only from the state named, only before it expires, once of parallel calls', async () => {
    const db = t.db.kysely;
    await insertFlow(db, flow('a'));
    expect(await advanceSignupFlow(db, { id: 'a', from: 'sms_otp', to: 'terms', now: T0 })).toBe(false);
    const moved = await Promise.all(Array.from({ length: 6 }, () => advanceSignupFlow(db, { id: 'a', from: 'email_otp', to: 'terms', now: T0 })));
    expect(moved.filter(Boolean)).toHaveLength(1);
    await insertFlow(db, flow('b'));
    expect(await advanceSignupFlow(db, { id: 'b', from: 'email_otp', to: 'terms', now: T0 + 60_000 })).toBe(false);
  });

  it('uses a secret once, and gives no try of a used, expired or exhausted one', async () => {
    const db = t.db.kysely;
    const row = { purpose: 'signup_email', subject: 's', secret_hash: 'h', attempts: 0, max_attempts: 2, created_at: T0, expires_at: T0 + 1000, consumed_at: null };
    await insertVerification(db, { id: 'v1', ...row });
    expect(await takeTry(db, 's', 'signup_email', T0 + 1000)).toBeUndefined();
    expect((await takeTry(db, 's', 'signup_email', T0))?.id).toBe('v1');
    const used = await Promise.all(Array.from({ length: 6 }, () => consumeVerification(db, 'v1', T0)));
    expect(used.filter(Boolean)).toHaveLength(1);
    expect(await takeTry(db, 's', 'signup_email', T0)).toBeUndefined();

    await insertVerification(db, { id: 'v2', ...row, subject: 's2' });
    expect(await takeTry(db, 's2', 'signup_email', T0)).toBeDefined();
    expect(await takeTry(db, 's2', 'signup_email', T0)).toBeDefined();
    expect(await takeTry(db, 's2', 'signup_email', T0)).toBeUndefined();
  });
});
