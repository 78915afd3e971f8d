import { LIMITS } from '@sso/contracts/constants';
import { readRecord, removeRecord, writeRecord } from './storage.ts';

/**
 * The ephemeral message (SPEC.md section 3): passes an error text to an error page. It is valid for
 * 500 ms after it was issued (SPEC.md section 9).
 */
interface EphemeralMessage {
  message: string;
  issuedAt: number;
}

const NAME = 'ephemeral';

export function setEphemeralMessage(message: string): void {
  writeRecord<EphemeralMessage>(NAME, { message, issuedAt: Date.now() });
}

/** The message if it is still valid; reading does not consume it (React may render twice). */
export function peekEphemeralMessage(): string | undefined {
  const m = readRecord<EphemeralMessage>(NAME);
  if (!m || typeof m.message !== 'string' || typeof m.issuedAt !== 'number') return undefined;
  return Date.now() - m.issuedAt <= LIMITS.ephemeralMessageMs ? m.message : undefined;
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
