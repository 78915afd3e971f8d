import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Kysely } from 'kysely';
import { LIMITS } from '@sso/contracts/constants';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../lib/app-error.ts';
import { sha256 } from '../../lib/secrets.ts';
import { createMigratedTestDb, DIALECTS, type TestDb } from '../../test-support/test-db.ts';
import { emailOtpFlow } from '../../test-support/signup-kit.ts';
import { advanceSignupFlow, insertFlow } from '../signup/flow-repo.ts';
import { hashSecret } from './codes.ts';
import { passCheck, startFlow } from './flow.ts';
import { endPurposeSecrets, endSecrets, issueSecret, issueToken, liveTokenSubject, redeemToken } from './one-time-secret.ts';
import { triedCode } from './purposes.ts';
import { checkSecret, secretLocked, type SecretCheck } from './secret-check.ts';

const T0 = Date.UTC(2026, 0, 1);
const TRIES = LIMITS.signupVerifyFailuresBeforeLock;

const wrongError = new AppError(902, 'wrong');
const lockedError = new AppError(203, 'locked');
const noTryError = new AppError(300, 'no try');
const answers: Pick<SecretCheck, 'locked' | 'wrong' | 'noTryLeft'> = {
  locked: () => lockedError,
  wrong: () => wrongError,
  noTryLeft: async () => noTryError,
};

/** What a check answered: the verification's id, or the error's name. */
const outcome = (p: Promise<string>) =>
  p.then(
    () => 'right',
    (err: unknown) => (err === wrongError ? 'wrong' : err === lockedError ? 'locked' : err === noTryError ? 'no try' : Promise.reject(err)),
  );

const rowsOf = (db: Kysely<Database>, subject: string) => db.selectFrom('verifications').selectAll().where('subject', '=', subject).orderBy('created_at').execute();

/** The verification kernel on its own (docs/decisions/0021): issue, check, consume, end, on both databases. */
describe.each(DIALECTS)('verification kernel (%s)', (dialect) => {
  let t: TestDb;
  const db = () => t.db.kysely;
  beforeAll(async () => {
    t = await createMigratedTestDb(dialect);
  });
  afterAll(async () => t?.drop());

  it('issues a code by its purpose rule, and a new one of a one-per-subject purpose ends the older', async () => {
    await issueSecret(db(), { purpose: 'signup_sms', subject: 'f1', hash: await hashSecret('111111'), now: T0 });
    await issueSecret(db(), { purpose: 'signup_sms', subject: 'f1', hash: await hashSecret('222222'), now: T0 + 1 });
    const [old, next] = await rowsOf(db(), 'f1');
    expect(old).toMatchObject({ purpose: 'signup_sms', attempts: 0, max_attempts: TRIES, consumed_at: T0 + 1 });
    expect(next).toMatchObject({ max_attempts: TRIES, consumed_at: null, expires_at: T0 + 1 + LIMITS.otpTtlMs });
    const check = { subject: 'f1', purpose: 'signup_sms', lockOwner: 'card-1', ...answers } as const;
    expect(await outcome(checkSecret(db(), T0 + 2, { ...check, secret: '111111' }))).toBe('wrong');
    expect(await outcome(checkSecret(db(), T0 + 2, { ...check, secret: '222222' }))).toBe('right');
  });

  it('keeps a PIN for its own lifetime, and never beyond its flow', async () => {
    await issueSecret(db(), { purpose: 'upgrade', subject: 'pin-flow', hash: 'h', now: T0, pin: true, endsBy: T0 + 60 * 60_000 });
    await issueSecret(db(), { purpose: 'upgrade', subject: 'code-flow', hash: 'h', now: T0, endsBy: T0 + 60_000 });
    expect((await rowsOf(db(), 'pin-flow'))[0]?.expires_at).toBe(T0 + LIMITS.memberFlowTtlMs);
    expect((await rowsOf(db(), 'code-flow'))[0]?.expires_at).toBe(T0 + 60_000);
  });

  it('takes a try before comparing: the tries used up answer no try, even to the right code', async () => {
    await issueSecret(db(), { purpose: 'point_transfer', subject: 'f2', hash: await hashSecret('123456'), now: T0 });
    const check = { subject: 'f2', purpose: 'point_transfer', lockOwner: 'member-2', ...answers } as const;
    // The lock's limit equals the tries: the last wrong answer locks, so the tries are used up without the lock by spreading owners.
    for (let i = 0; i < TRIES - 1; i++) expect(await outcome(checkSecret(db(), T0, { ...check, secret: '000000' }))).toBe('wrong');
    expect(await outcome(checkSecret(db(), T0, { ...check, lockOwner: 'member-2b', secret: '000000' }))).toBe('wrong');
    expect(await outcome(checkSecret(db(), T0, { ...check, lockOwner: 'member-2c', secret: '123456' }))).toBe('no try');
    expect((await rowsOf(db(), 'f2'))[0]).toMatchObject({ attempts: TRIES, consumed_at: null });
  });

  it('locks the owner at the limit, across subjects, and the lock answers before any try is taken', async () => {
    const owner = 'member-3';
    for (let i = 0; i < TRIES; i++) {
      const subject = `f3-${i}`;
      await issueSecret(db(), { purpose: 'numberless', subject, hash: await hashSecret('123456'), now: T0 });
      const answer = await outcome(checkSecret(db(), T0, { subject, purpose: 'numberless', lockOwner: owner, secret: '000000', ...answers }));
      expect(answer).toBe(i === TRIES - 1 ? 'locked' : 'wrong');
    }
    expect(await secretLocked(db(), 'numberless', owner, T0)).toBe(true);
    expect(await secretLocked(db(), 'login_tel', owner, T0)).toBe(false);
    const { lockMs } = triedCode('numberless').lock;
    // A code live both now and when the lock ends.
    await issueSecret(db(), { purpose: 'numberless', subject: 'f3-last', hash: await hashSecret('123456'), now: T0 + lockMs - 1 });
    const locked = { subject: 'f3-last', purpose: 'numberless', lockOwner: owner, secret: '123456', ...answers } as const;
    expect(await outcome(checkSecret(db(), T0, locked))).toBe('locked');
    expect((await rowsOf(db(), 'f3-last'))[0]?.attempts).toBe(0);
    expect(await outcome(checkSecret(db(), T0 + lockMs, locked))).toBe('right');
  });

  it('of parallel right answers exactly one passes the check: the flow moves and the secret is used up together', async () => {
    // A sign-up flow waiting for its e-mail code: the kernel moves it through its repo's conditional update.
    const flow = emailOtpFlow('f4', T0, LIMITS.signupFlowTtlMs);
    await startFlow(db(), {
      purpose: 'signup_email',
      hash: await hashSecret('654321'),
      now: T0,
      flowId: flow.id,
      flowExpiresAt: flow.expires_at,
      store: async (trx) => {
        await insertFlow(trx, flow);
        return [];
      },
    });
    const check = { subject: 'f4', purpose: 'signup_email', lockOwner: 'card-4', secret: '654321', ...answers } as const;
    const ids = await Promise.all(Array.from({ length: 4 }, () => checkSecret(db(), T0, check)));
    const passed = await Promise.all(
      ids.map((verificationId) =>
        db()
          .transaction()
          .execute((trx) => passCheck(trx, { move: (d) => advanceSignupFlow(d, { id: 'f4', from: 'email_otp', to: 'terms', now: T0 }), verificationId, now: T0, expired: () => noTryError })),
      ),
    );
    expect(passed.filter(Boolean)).toHaveLength(1);
    expect((await rowsOf(db(), 'f4'))[0]?.consumed_at).toBe(T0);
    expect(await outcome(checkSecret(db(), T0, check))).toBe('no try');
  });

  it('starts a flow replacing the earlier ones, whose secrets end at once', async () => {
    // The flow's repo replaces its earlier rows and names them (member_flows, email_changes, open_signups do).
    const start = (id: string, replaced: string[]) =>
      startFlow(db(), { purpose: 'email_change', hash: 'h', now: T0, flowId: id, flowExpiresAt: T0 + 30 * 60_000, store: async () => replaced });
    await start('f5-old', []);
    await start('f5-new', ['f5-old']);
    expect((await rowsOf(db(), 'f5-old'))[0]?.consumed_at).toBe(T0);
    expect((await rowsOf(db(), 'f5-new'))[0]).toMatchObject({ consumed_at: null, expires_at: T0 + LIMITS.otpTtlMs });
  });

  it('redeems a single-use token once of parallel presentations, with its binding, and never after it expires', async () => {
    const token = await issueToken(db(), { purpose: 'password_reset', subject: 'member-6', now: T0, binding: 'to-address' });
    const hash = sha256(token);
    expect((await rowsOf(db(), 'member-6'))[0]).toMatchObject({ secret_hash: hash, max_attempts: 1, expires_at: T0 + LIMITS.passwordResetValidMinutes * 60_000 });
    expect(await liveTokenSubject(db(), 'password_reset', hash, T0)).toBe('member-6');
    expect(await liveTokenSubject(db(), 'login_ticket', hash, T0)).toBeUndefined();
    const redeemed = await Promise.all(Array.from({ length: 5 }, () => db().transaction().execute((trx) => redeemToken(trx, 'password_reset', hash, T0))));
    expect(redeemed.filter((r) => r !== undefined)).toEqual([{ subject: 'member-6', binding: 'to-address' }]);
    expect(await liveTokenSubject(db(), 'password_reset', hash, T0)).toBeUndefined();

    const late = sha256(await issueToken(db(), { purpose: 'login_ticket', subject: 'member-6', now: T0 }));
    expect(await redeemToken(db(), 'login_ticket', late, T0 + LIMITS.loginTicketTtlMs)).toBeUndefined();
  });

  it('ends the live secrets of subjects, and of one purpose of a subject', async () => {
    await issueSecret(db(), { purpose: 'point_transfer', subject: 'f7', hash: 'h', now: T0 });
    await issueToken(db(), { purpose: 'login_ticket', subject: 'member-7', now: T0 });
    await issueToken(db(), { purpose: 'login_ticket', subject: 'member-7', now: T0 });
    expect(await endSecrets(db(), ['f7', 'no-such-subject'], T0)).toBe(1);
    expect(await endSecrets(db(), [], T0)).toBe(0);
    expect(await endPurposeSecrets(db(), 'member-7', 'login_ticket', T0)).toBe(2);
    expect(await endPurposeSecrets(db(), 'member-7', 'login_ticket', T0)).toBe(0);
  });
});
