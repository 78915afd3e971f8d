import type { AddressObject } from 'mailparser';
import type { DevMailbox } from './dev-mailbox.ts';

export interface SmtpSink {
  port: number;
  close(): Promise<void>;
}

const addresses = (to: AddressObject | AddressObject[] | undefined) =>
  (Array.isArray(to) ? to : to ? [to] : []).flatMap((a) => a.value.map((v) => v.address ?? '')).filter(Boolean);

/**
 * The local SMTP sink of development (docs/operations.md "Mail and SMS delivery"): a real SMTP server on 127.0.0.1 that
 * accepts every message and puts it in the development mailbox. A message is stored before the
 * server answers 250, so a sender that got its answer finds the message in the mailbox.
 *
 * Its packages (smtp-server, mailparser) are development dependencies, loaded by import() only when
 * the sink starts: the production build leaves them out of dist/ (docs/operations.md "Container image").
 */
export async function startSmtpSink(mailbox: DevMailbox, port: number): Promise<SmtpSink> {
  const [{ SMTPServer }, { simpleParser }] = await Promise.all([import('smtp-server'), import('mailparser')]);
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    banner: 'member-sso development sink',
    size: 1024 * 1024,
    logger: false,
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((mail) => {
          const to = addresses(mail.to);
          const recipients = to.length > 0 ? to : session.envelope.rcptTo.map((r) => r.address);
          for (const address of recipients) {
            const html = typeof mail.html === 'string' ? { html: mail.html } : {};
            mailbox.add({ kind: 'mail', to: address, subject: mail.subject ?? '', text: (mail.text ?? '').trimEnd(), ...html });
          }
          callback();
        })
        .catch((err: unknown) => callback(err instanceof Error ? err : new Error(String(err))));
    },
  });
  return new Promise((resolve, reject) => {
    const onError = (err: Error) =>
      reject(new Error(`the development SMTP sink cannot listen on 127.0.0.1:${port} (${err.message}); set SMTP_SINK_PORT or SMTP_URL`));
    server.once('error', onError);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', onError);
      // A broken client connection must not take the process down.
      server.on('error', () => undefined);
      const address = server.server.address();
      resolve({
        port: typeof address === 'object' && address ? address.port : port,
        close: () => new Promise<void>((done) => server.close(() => done())),
      });
    });
  });
}
