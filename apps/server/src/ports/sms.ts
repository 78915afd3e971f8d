/**
 * SMS gateway port (docs/operations.md "Mail and SMS delivery"). The development adapter (sms-simulator.ts) delivers
 * into the development mailbox shown at /dev/mailbox; the company's gateway plugs in behind this
 * interface.
 */
export interface SmsGateway {
  /** Delivers one SMS; rejects when it could not be delivered now (the outbox retries it). */
  send(to: string, text: string): Promise<void>;
}
