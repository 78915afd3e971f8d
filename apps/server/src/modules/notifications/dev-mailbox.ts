/** One message as the development mailbox shows it (`kind`, `to`, `subject`, `text`, `sentAt`). */
export interface MailboxEntry {
  kind: 'sms' | 'mail';
  to: string;
  subject: string;
  text: string;
  /** The HTML part of a mail, when it has one. */
  html?: string;
  /** ISO 8601 time the message was received. */
  sentAt: string;
}

/** How many messages the development mailbox keeps; older ones drop off. */
const CAPACITY = 500;

/**
 * Every SMS and mail received in development, newest first, in memory: what /dev/mailbox shows so
 * that a person and the tests can read codes and links. Never used when NODE_ENV=production.
 */
export class DevMailbox {
  private readonly entries: MailboxEntry[] = [];

  add(entry: Omit<MailboxEntry, 'sentAt'>, at: Date = new Date()): void {
    this.entries.unshift({ ...entry, sentAt: at.toISOString() });
    if (this.entries.length > CAPACITY) this.entries.length = CAPACITY;
  }

  list(): MailboxEntry[] {
    return [...this.entries];
  }
}
