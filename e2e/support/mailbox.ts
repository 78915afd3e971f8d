import { expect } from 'vitest';

interface MailboxEntry {
  kind: 'sms' | 'mail';
  to: string;
  subject: string;
  text: string;
  sentAt: string;
}

/** The development mailbox of a running system (GET /dev/mailbox.json), newest first. */
export async function readMailbox(origin: string): Promise<MailboxEntry[]> {
  const res = await fetch(`${origin}/dev/mailbox.json`);
  expect(res.status).toBe(200);
  return (await res.json()) as MailboxEntry[];
}

/**
 * Waits for a message of `kind` to `to` newer than the `after` count of such messages, and returns
 * the first code of `digits` digits in it: the one-time password a member would read.
 */
export async function waitForCode(origin: string, kind: 'sms' | 'mail', to: string, after = 0, digits = 6): Promise<string> {
  let code: string | undefined;
  await expect
    .poll(
      async () => {
        const mine = (await readMailbox(origin)).filter((m) => m.kind === kind && m.to === to);
        code = mine.length > after ? new RegExp(`\\b\\d{${digits}}\\b`).exec(mine[0]?.text ?? '')?.[0] : undefined;
        return code;
      },
      { timeout: 10_000 },
    )
    .toBeTruthy();
  return code as string;
}

/** How many messages of `kind` went to `to` so far. */
export async function countMessages(origin: string, kind: 'sms' | 'mail', to: string): Promise<number> {
  return (await readMailbox(origin)).filter((m) => m.kind === kind && m.to === to).length;
}
