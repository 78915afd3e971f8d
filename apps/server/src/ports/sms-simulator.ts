import type { SmsGateway } from './sms.ts';

/**
 * Where the simulator puts each SMS: the development mailbox (notifications/dev-mailbox.ts) has this
 * shape. Declared here, so that the port does not reach up into a module (docs/architecture.md).
 */
export interface SmsInbox {
  add(entry: { kind: 'sms'; to: string; subject: string; text: string }): void;
}

/** The development SMS adapter (docs/operations.md "Mail and SMS delivery"): every SMS lands in the development mailbox at /dev/mailbox. */
export const smsSimulator = (mailbox: SmsInbox): SmsGateway => ({
  send: async (to, text) => {
    mailbox.add({ kind: 'sms', to, subject: '', text });
  },
});
