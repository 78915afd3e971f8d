import type { Kysely } from 'kysely';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/schema.ts';
import type { Clock } from '../../lib/clock.ts';
import { smsSimulator } from '../../ports/sms-simulator.ts';
import type { SmsGateway } from '../../ports/sms.ts';
import { DevMailbox } from './dev-mailbox.ts';
import { smtpTransport } from './mail-transport.ts';
import { outboxNotifier, type Deliver, type OutboxNotifier } from './outbox.ts';
import { startSmtpSink } from './smtp-sink.ts';

/** How often the outbox worker looks for messages to retry. */
export const OUTBOX_WORKER_INTERVAL_MS = 5_000;

export interface Messaging {
  notifier: OutboxNotifier;
  /** The development mailbox; undefined in production. */
  mailbox: DevMailbox | undefined;
  close(): Promise<void>;
}

interface Log {
  info(msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/**
 * Mail, SMS and back-channel logouts for the app (docs/operations.md "Mail and SMS delivery"). Mail goes over real SMTP to SMTP_URL; without
 * one (never in production) an SMTP sink is started in-process on 127.0.0.1:SMTP_SINK_PORT and mail
 * goes there. SMS go to the SMS gateway port (the development adapter unless one is given). Outside
 * production both land in the development mailbox. A worker retries what could not be delivered.
 */
export async function startMessaging(
  config: Config,
  deps: {
    db: Kysely<Database>;
    clock: Clock;
    log: Log;
    sms?: SmsGateway;
    /** Delivers a back-channel logout to its client (modules/oidc/backchannel-logout.ts). */
    backchannel: Deliver;
  },
): Promise<Messaging> {
  const mailbox = config.env === 'production' ? undefined : new DevMailbox();
  const sink = config.smtpUrl || !mailbox ? undefined : await startSmtpSink(mailbox, config.smtpSinkPort);
  if (sink) deps.log.info(`development SMTP sink on 127.0.0.1:${sink.port}; messages at /dev/mailbox`);
  const mail = smtpTransport(config.smtpUrl ?? `smtp://127.0.0.1:${sink?.port ?? 0}`, config.mailFrom);
  // The company's SMS gateway is its own system: until its adapter is configured, the simulator takes the messages.
  const sms = deps.sms ?? smsSimulator(mailbox ?? new DevMailbox());
  const notifier = outboxNotifier({
    db: deps.db,
    clock: deps.clock,
    log: deps.log,
    deliver: (m) => {
      if (m.kind === 'backchannel') return deps.backchannel(m);
      return m.kind === 'sms' ? sms.send(m.to, m.text) : mail.send(m.to, m.subject ?? '', m.text, m.html);
    },
  });
  const worker = setInterval(() => {
    notifier.drain().catch((err: unknown) => deps.log.warn({ err }, 'outbox worker failed'));
  }, OUTBOX_WORKER_INTERVAL_MS);
  worker.unref();
  return {
    notifier,
    mailbox,
    close: async () => {
      clearInterval(worker);
      mail.close();
      await sink?.close();
    },
  };
}
