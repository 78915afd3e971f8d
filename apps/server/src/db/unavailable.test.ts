import { describe, expect, it } from 'vitest';
import { databaseUnavailable } from './unavailable.ts';

const withCode = (code: string, message = 'x') => Object.assign(new Error(message), { code });

describe('databaseUnavailable', () => {
  it('tells a database that cannot be reached or written from any other error', () => {
    for (const code of ['SQLITE_BUSY', 'SQLITE_BUSY_SNAPSHOT', 'SQLITE_LOCKED', 'SQLITE_IOERR_WRITE', 'SQLITE_CANTOPEN', 'SQLITE_FULL']) {
      expect(databaseUnavailable(withCode(code)), code).toBe(true);
    }
    for (const code of ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', '57P01', '57P02', '57P03', '08006', '08001', '53300']) {
      expect(databaseUnavailable(withCode(code)), code).toBe(true);
    }
    for (const message of ['Connection terminated unexpectedly', 'Connection terminated due to connection timeout', 'timeout exceeded when trying to connect']) {
      expect(databaseUnavailable(new Error(message)), message).toBe(true);
    }
    expect(databaseUnavailable(new AggregateError([withCode('ECONNREFUSED'), withCode('ECONNREFUSED')]))).toBe(true);
    // Faults of the request or the code stay what they are (500 or their own answer).
    for (const code of ['SQLITE_CONSTRAINT_UNIQUE', 'SQLITE_ERROR', '23505', '42P01', '40001', 'ERR_INVALID_ARG_TYPE']) {
      expect(databaseUnavailable(withCode(code)), code).toBe(false);
    }
    expect(databaseUnavailable(new TypeError('fetch failed', { cause: withCode('ECONNREFUSED') }))).toBe(false);
    expect(databaseUnavailable(new Error('boom'))).toBe(false);
    expect(databaseUnavailable(undefined)).toBe(false);
  });
});
