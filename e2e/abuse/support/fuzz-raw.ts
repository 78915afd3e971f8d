import fc from 'fast-check';
import type { Endpoint } from './fuzz-requests.ts';

/**
 * Requests no HTTP client library sends, written byte for byte (fuzz-http.ts sendRaw): header
 * fields over Node's 16 KiB limit, framing that request smuggling plays with (two lengths, a length
 * with chunked coding, bad chunks; RFC 9112 sections 6.1 and 6.3), a bad version, folded or
 * malformed header lines, no Host, bare LF, a TLS hello, and random header bytes. Each is refused
 * by Node's parser (then error-handler.ts clientErrorHandler answers) or reaches the route.
 */

const TEMPLATES: ((m: string, p: string) => string)[] = [
  (m, p) => `${m} ${p}?q=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`,
  (m, p) => `${m} ${p} HTTP/1.1\r\nHost: x\r\nCookie: ${'a'.repeat(20_000)}\r\n\r\n`,
  (m, p) => `${m} ${p} HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\nabcdef`,
  (m, p) => `${m} ${p} HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`,
  (m, p) => `${m} ${p} HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nZZ\r\nabc\r\n0\r\n\r\n`,
  (m, p) => `${m} ${p} HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked, identity\r\n\r\n0\r\n\r\n`,
  (m, p) => `${m} ${p} HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n`,
  (m, p) => `${m} ${p} HTTP/9.9\r\nHost: x\r\n\r\n`,
  (m, p) => `${m} ${p} HTTP/1.1\r\nHost: x\r\nX-A: a\r\n b\r\n\r\n`,
  (m, p) => `${m} ${p} HTTP/1.1\r\nHost: x\r\nBad Header: 1\r\n\r\n`,
  (m, p) => `${m} ${p} HTTP/1.1\r\nHost: x\r\nX-A: a\u0000b\r\n\r\n`,
  (m, p) => `${m} ${p} HTTP/1.1\r\n\r\n`,
  (m, p) => `${m} ${p} HTTP/1.1\nHost: x\n\n`,
  () => 'GARBAGE\r\n\r\n',
  () => '\u0016\u0003\u0001\u0002\u0000\u0001\u0000\u0001\u00fc\u0003\u0003\r\n\r\n',
];

export const RAW_TEMPLATES = TEMPLATES.length;

/** Every raw request for the endpoint: the templates, then `random` header blocks of random bytes. */
export function rawRequests(e: Endpoint, path: string, random: number, seed: number): Buffer[] {
  const fixed = TEMPLATES.map((t) => Buffer.from(t(e.method, path), 'latin1'));
  const headerBytes = fc
    .string({ unit: 'binary-ascii', minLength: 1, maxLength: 200 })
    .map((h) => Buffer.from(`${e.method} ${path} HTTP/1.1\r\nHost: x\r\nX-Fuzz: ${h}\r\n\r\n`, 'latin1'));
  return [...fixed, ...fc.sample(headerBytes, { numRuns: random, seed })];
}
