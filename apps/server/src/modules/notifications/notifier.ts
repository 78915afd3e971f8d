/** A message to a member: an e-mail (with subject) or an SMS. */
export interface OutgoingMessage {
  kind: 'mail' | 'sms';
  /** An e-mail address or a mobile number. */
  to: string;
  /** The mail subject; SMS have none. */
  subject?: string;
  text: string;
  /** The HTML alternative of a mail; the text part is always sent too. */
  html?: string;
}

/**
 * Sends mail and SMS reliably (decision 0004): the message is written to the outbox first, one
 * delivery is tried at once, and a failed delivery is retried by the outbox worker. `send` never
 * throws for a delivery failure, so a step's data is never lost because a message could not go out
 * now.
 */
export interface Notifier {
  send(message: OutgoingMessage): Promise<void>;
}
