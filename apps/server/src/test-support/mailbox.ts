import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import type { MailboxEntry } from '../modules/notifications/dev-mailbox.ts';

/** The development mailbox as a client reads it: GET /dev/mailbox.json, newest first. */
export async function readMailbox(app: FastifyInstance): Promise<MailboxEntry[]> {
  const res = await app.inject({ method: 'GET', url: '/dev/mailbox.json' });
  if (res.statusCode !== 200) throw new Error(`mailbox answered ${res.statusCode}`);
  return res.json() as MailboxEntry[];
}

/** The newest 6-digit code sent to `to` (an e-mail address or a mobile number), or undefined. */
export async function latestCode(app: FastifyInstance, to: string, digits = 6): Promise<string | undefined> {
  const entry = (await readMailbox(app)).find((m) => m.to === to);
  return entry ? new RegExp(`\\b\\d{${digits}}\\b`).exec(entry.text)?.[0] : undefined;
}

/** The mail sent to `to`, newest first. */
export const mailsTo = async (app: FastifyInstance, to: string) => (await readMailbox(app)).filter((m) => m.kind === 'mail' && m.to === to);

/**
 * Waits (a bounded poll) until `count` mails have reached `to`, and returns them newest first: mail
 * that an answer does not wait for (decision 0005) arrives a little after the answer.
 */
export async function waitForMails(app: FastifyInstance, to: string, count = 1): Promise<MailboxEntry[]> {
  await expect.poll(async () => (await mailsTo(app, to)).length, { timeout: 10_000, interval: 25 }).toBeGreaterThanOrEqual(count);
  return mailsTo(app, to);
}
