/**
 * A message to a member, an e-mail (with subject) or an SMS; or to a client: a back-channel logout
 * (OpenID Connect Back-Channel Logout 1.0, modules/oidc/backchannel-logout.ts), its logout token made
 * at delivery from the text.
 */
export interface OutgoingMessage {
  kind: 'mail' | 'sms' | 'backchannel';
  /** An e-mail address, a mobile number, or (a back-channel logout) the client id. */
  to: string;
  /** The mail subject; SMS have none. */
  subject?: string;
  text: string;
  /** The HTML alternative of a mail; the text part is always sent too. */
  html?: string;
  /** It carries a one-time password: its first delivery is counted in sso_otp_messages_total (lib/metrics.ts). */
  otp?: true;
}

/** Marks a message as one that carries a one-time password (OutgoingMessage `otp`). */
export const withOneTimePassword = (message: OutgoingMessage): OutgoingMessage => ({ ...message, otp: true });

/**
 * Sends mail and SMS reliably (decision 0004): the message is written to the outbox first, one
 * delivery is tried at once, and a failed delivery is retried by the outbox worker. `send` never
 * throws for a delivery failure, so a step's data is never lost because a message could not go out
 * now.
 */
export interface Notifier {
  send(message: OutgoingMessage): Promise<void>;
}
