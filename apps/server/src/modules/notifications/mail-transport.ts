import nodemailer from 'nodemailer';

export interface MailTransport {
  /** Delivers one mail over SMTP; rejects when the server could not take it now. */
  send(to: string, subject: string, text: string, html?: string): Promise<void>;
  close(): void;
}

/** How long a send waits for a mail server (ms): an outage then leaves the mail to the outbox's retries. */
export const SMTP_WAITS = { connectionTimeout: 5_000, greetingTimeout: 5_000, socketTimeout: 10_000 };

/**
 * The waits as query parameters of the SMTP URL, where the operator has not set them: nodemailer
 * takes every option from the URL when it is given one, and ignores options passed beside it.
 */
export function withWaits(url: string, waits: Record<string, number> = SMTP_WAITS): string {
  const u = new URL(url);
  for (const [key, ms] of Object.entries(waits)) if (!u.searchParams.has(key)) u.searchParams.set(key, String(ms));
  return u.toString();
}

/** Real SMTP with nodemailer to SMTP_URL (or the development sink), with bounded waits. */
export function smtpTransport(url: string, from: string, waits: Record<string, number> = SMTP_WAITS): MailTransport {
  const transporter = nodemailer.createTransport(withWaits(url, waits), { from });
  return {
    async send(to, subject, text, html) {
      await transporter.sendMail({ to, subject, text, ...(html ? { html } : {}) });
    },
    close: () => transporter.close(),
  };
}
