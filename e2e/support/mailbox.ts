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
 * Waits for a message of `kind` to `to` newer than the `after` count of such messages whose text
 * matches `pattern`, and returns the match in the newest such message: what a member would read and
 * use. Other mail that arrives meanwhile (a sign-in notice, decision 0024) is passed over, as the
 * member would pass over it.
 */
export async function waitForMatch(origin: string, kind: 'sms' | 'mail', to: string, pattern: RegExp, after = 0): Promise<string> {
  let found: string | undefined;
  await expect
    .poll(
      async () => {
        const mine = (await readMailbox(origin)).filter((m) => m.kind === kind && m.to === to);
        found = mine
          .slice(0, Math.max(0, mine.length - after))
          .map((m) => pattern.exec(m.text)?.[0])
          .find((match) => match !== undefined);
        return found;
      },
      { timeout: 10_000 },
    )
    .toBeTruthy();
  return found as string;
}

/** The newest one-time password of `digits` digits sent to `to`. */
export const waitForCode = (origin: string, kind: 'sms' | 'mail', to: string, after = 0, digits = 6) =>
  waitForMatch(origin, kind, to, new RegExp(`\\b\\d{${digits}}\\b`), after);

/** The newest link to `path` (with its onetime_token) mailed to `to`. */
export const waitForLink = (origin: string, to: string, path: string, after = 0) =>
  waitForMatch(origin, 'mail', to, new RegExp(`https?://\\S+${path.replaceAll('/', '\\/')}\\?onetime_token=[A-Za-z0-9_-]+`), after);

/** How many messages of `kind` went to `to` so far. */
export async function countMessages(origin: string, kind: 'sms' | 'mail', to: string): Promise<number> {
  return (await readMailbox(origin)).filter((m) => m.kind === kind && m.to === to).length;
}
