import nodemailer from 'nodemailer';

export interface MailTransport {
  /** Delivers one mail over SMTP; rejects when the server could not take it now. */
  send(to: string, subject: string, text: string, html?: string): Promise<void>;
  close(): void;
}

/** Real SMTP with nodemailer to SMTP_URL (or the development sink), with bounded waits. */
export function smtpTransport(url: string, from: string): MailTransport {
  const transporter = nodemailer.createTransport({ url, connectionTimeout: 5_000, greetingTimeout: 5_000, socketTimeout: 10_000 }, { from });
  return {
    async send(to, subject, text, html) {
      await transporter.sendMail({ to, subject, text, ...(html ? { html } : {}) });
    },
    close: () => transporter.close(),
  };
}
