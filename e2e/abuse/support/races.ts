import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect } from 'vitest';
import type { Db } from '@sso/server/test-support/internals';
import { startSystem, type RunningSystem } from '../../support/server.ts';
import { waitForLink } from '../../support/mailbox.ts';
import { inParallel, login, post, type Answer, type Tokens } from './client.ts';
import { createTestDb, openSystemDb } from './db.ts';
import { OPEN_PASSWORD, openBody } from './signup-bodies.ts';

/** Every one-time secret is redeemed by this many requests at once. */
export const RACERS = 100;

/** The running system of a race file and its database, to check afterwards what was really stored. */
export interface RaceSystem {
  origin: string;
  db: Db;
}

/**
 * Starts a system for the file's races (beforeAll) and stops it after (afterAll): on its own SQLite
 * file, or on a fresh PostgreSQL database that is dropped afterwards (the two engines lock
 * differently: SQLite serialises writers, PostgreSQL holds row locks until commit).
 */
export function withRaceSystem(engine: 'sqlite' | 'postgres'): RaceSystem {
  const env = {} as RaceSystem;
  let system: RunningSystem | undefined;
  let drop: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    if (engine === 'postgres') {
      const testDb = await createTestDb('postgres');
      drop = testDb.drop;
      system = await startSystem({ quiet: true, env: { DATABASE_URL: testDb.url } });
      env.db = testDb.db;
    } else {
      system = await startSystem({ quiet: true });
      env.db = openSystemDb(system.databaseUrl);
    }
    env.origin = system.origin;
  });
  afterAll(async () => {
    await system?.stop();
    if (drop) await drop();
    else await env.db?.close();
  });
  return env;
}

export interface RaceOutcome {
  /** Indexes (0..RACERS-1) of the requests that were answered as a success. */
  winners: number[];
  answers: Answer[];
  /** How many answers of each kind came back (status and result code or OAuth error), for messages. */
  tally: string;
}

/** A redirect's kind is the RFC 6749 parameter it carries (a code or an error). */
const redirectKind = (a: Answer) => {
  const q = new URL(a.headers.get('location') ?? 'http://invalid/').searchParams;
  return q.get('error') ?? (q.has('code') ? 'code' : '');
};
const kindOf = (a: Answer) => `${a.status} ${String(a.json?.result_code ?? a.json?.error ?? (a.status === 303 ? redirectKind(a) : ''))}`.trim();

function tallyOf(answers: Answer[]): string {
  const counts = new Map<string, number>();
  for (const a of answers) counts.set(kindOf(a), (counts.get(kindOf(a)) ?? 0) + 1);
  return [...counts].map(([kind, n]) => `${n} x ${kind}`).join(', ');
}

export const resultCode = (a: Answer) => a.json?.result_code;

/**
 * Fires RACERS copies of one redemption at once (request i gets `fire(i)`) and checks the answers:
 * none is a 5xx, and every one that `won` did not is a refusal that `refused` accepts. The caller
 * asserts how many may win and what the database holds.
 */
export async function race(fire: (i: number) => Promise<Answer>, won: (a: Answer) => boolean, refused: (a: Answer) => boolean): Promise<RaceOutcome> {
  const answers = await inParallel(RACERS, fire);
  const winners = answers.flatMap((a, i) => (won(a) ? [i] : []));
  const odd = answers.filter((a) => !won(a) && (a.status >= 500 || !refused(a)));
  const tally = tallyOf(answers);
  expect(odd.map((a) => `${a.status} ${a.text.slice(0, 200)}`), tally).toEqual([]);
  return { winners, answers, tally };
}

/** A result-code API's refusal: one of `codes`, never a 5xx. */
export const refusedWith = (...codes: number[]) => (a: Answer) => a.status < 500 && codes.includes(Number(resultCode(a)));
/** An RFC 6749 token endpoint refusal (section 5.2). */
export const invalidGrant = (a: Answer) => a.status === 400 && a.json?.error === 'invalid_grant';
export const succeeded = (a: Answer) => a.status === 200 && resultCode(a) === 0;

/** Fires the race and expects exactly one winner; returns its index and answer. */
export async function raceForOne(fire: (i: number) => Promise<Answer>, won: (a: Answer) => boolean, refused: (a: Answer) => boolean) {
  const outcome = await race(fire, won, refused);
  expect(outcome.winners, `the requests that succeeded (answers: ${outcome.tally})`).toHaveLength(1);
  const index = outcome.winners[0]!;
  return { index, answer: outcome.answers[index]! };
}

/** A fresh address and mobile number, so that mails, message limits and unique numbers never mix. */
export const freshEmail = (label: string) => `race.${label}.${randomBytes(4).toString('hex')}@example.com`;
export const ACTIVATE_PATH = '/content/signup/open/activate';

/** The onetime_token of a link the member received. */
export const tokenOfLink = (link: string) => new URL(link).searchParams.get('onetime_token') as string;

/** Registers an open sign-up (SPEC.md section 3, "Open sign-up") and returns the activation link's token. */
export async function registerOpen(origin: string, email: string): Promise<string> {
  const res = await post(origin, '/api/signup/open', { json: openBody(email) });
  expect(resultCode(res), res.text).toBe(0);
  return tokenOfLink(await waitForLink(origin, email, ACTIVATE_PATH));
}

/** A new open member (registered and activated through the API), logged in to the web client. */
export async function openMember(sys: RaceSystem, label: string): Promise<{ email: string; userId: string; tokens: Tokens }> {
  const email = freshEmail(label);
  const activated = await post(sys.origin, '/api/signup/open/otp', { json: { onetime_token: await registerOpen(sys.origin, email) } });
  expect(resultCode(activated), activated.text).toBe(0);
  const tokens = await login(sys.origin, email, OPEN_PASSWORD);
  return { email, userId: await userIdOf(sys.db, email), tokens };
}

export const userIdOf = async (db: Db, email: string) =>
  (await db.kysely.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id;

/** The rows of the outbox (every mail and SMS the system meant to send) to one recipient. */
export const outboxTo = (db: Db, recipient: string) =>
  db.kysely.selectFrom('outbox').select(['id', 'subject']).where('recipient', '=', recipient).execute();

/** The verifications (one-time secrets) of a subject, such as a flow id, of one purpose. */
export const secretsOf = (db: Db, subject: string, purpose: string) =>
  db.kysely.selectFrom('verifications').selectAll().where('subject', '=', subject).where('purpose', '=', purpose).execute();

/** A member's activity log rows of one event. */
export const eventsOf = (db: Db, userId: string, event: string) =>
  db.kysely.selectFrom('activity_log').select('id').where('user_id', '=', userId).where('event', '=', event).execute();
