import { LIMITS } from '@sso/contracts/constants';
import { readRecord, removeRecord, writeRecord } from './storage.ts';

/**
 * The ephemeral message (SPEC.md section 3): passes an error text to an error page. It is valid for
 * 500 ms after it was issued (SPEC.md section 9). With it, the support reference of the server's
 * answer when it sent one (docs/operations.md, "Support reference"), for /500 to show.
 */
interface EphemeralMessage {
  message: string;
  reference?: string;
  issuedAt: number;
}

const NAME = 'ephemeral';

/** A support reference as the server makes it (8 hex digits): nothing else is shown to the member. */
const REFERENCE = /^[0-9a-f]{8}$/;

export function setEphemeralMessage(message: string, reference?: string): void {
  writeRecord<EphemeralMessage>(NAME, { message, ...(reference ? { reference } : {}), issuedAt: Date.now() });
}

function valid(): EphemeralMessage | undefined {
  const m = readRecord<EphemeralMessage>(NAME);
  if (!m || typeof m.message !== 'string' || typeof m.issuedAt !== 'number') return undefined;
  return Date.now() - m.issuedAt <= LIMITS.ephemeralMessageMs ? m : undefined;
}

/** The message if it is still valid; reading does not consume it (React may render twice). */
export const peekEphemeralMessage = (): string | undefined => valid()?.message;

/**
 * The support reference passed with the message, while the message is valid, and only one shaped
 * as the server makes it: the record is read back from storage, which anything on the page can write.
 */
export function peekEphemeralReference(): string | undefined {
  const reference = valid()?.reference;
  return typeof reference === 'string' && REFERENCE.test(reference) ? reference : undefined;
}

export function clearEphemeralMessage(): void {
  removeRecord(NAME);
}

/** Reads the message once: a second read gives nothing. */
export function takeEphemeralMessage(): string | undefined {
  const message = peekEphemeralMessage();
  clearEphemeralMessage();
  return message;
}
