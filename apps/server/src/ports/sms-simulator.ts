import type { DevMailbox } from '../modules/notifications/dev-mailbox.ts';
import type { SmsGateway } from './sms.ts';

/** The development SMS adapter (README "Mail and SMS"): every SMS lands in the development mailbox at /dev/mailbox. */
export const smsSimulator = (mailbox: DevMailbox): SmsGateway => ({
  send: async (to, text) => {
    mailbox.add({ kind: 'sms', to, subject: '', text });
  },
});
