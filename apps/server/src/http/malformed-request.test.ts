import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { withTestApp } from '../test-support/test-app.ts';

const MALFORMED = { result_code: 901, result_message: '入力内容をご確認ください。', validation_errors: [] };

/** Writes raw bytes to the listening app and reads until it closes the connection. */
function rawExchange(port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(request));
    const chunks: Buffer[] = [];
    socket.on('data', (d: Buffer) => chunks.push(d));
    socket.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    socket.on('error', reject);
  });
}

const parse = (raw: string) => {
  const [head = '', body = ''] = raw.split('\r\n\r\n');
  return { status: Number(head.split(' ')[1]), head, body: JSON.parse(body) as unknown };
};

/**
 * Requests refused before any route sees them (found by e2e/abuse/fuzz.test.ts): they
 * answer the 901 body of every malformed request, not Fastify's own body that echoed the path and
 * named its error code (ARCHITECTURE.md "One error type"; OWASP ASVS 5.0 V16.5).
 */
describe('requests refused before routing', () => {
  const t = withTestApp('sqlite');
  const listening = async () => {
    if (!t.app.server.listening) await t.app.listen({ port: 0, host: '127.0.0.1' });
    return (t.app.server.address() as { port: number }).port;
  };

  it('answers a path of invalid percent-encoding or an over-long route parameter with the 901 body', async () => {
    for (const url of ['/content/%E0%A4%A', '/api/auth/token/%', `/dev/partner/${'a'.repeat(200)}/callback`]) {
      const res = await t.app.inject({ method: 'GET', url });
      expect([res.statusCode, res.json()], url).toEqual([400, MALFORMED]);
      expect(res.body, url).not.toContain('FST_');
    }
  });

  it('answers what the HTTP parser refuses (oversize header fields, garbage) with the 901 body and closes', async () => {
    const port = await listening();
    const huge = parse(await rawExchange(port, `GET /content/?q=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`));
    expect([huge.status, huge.body]).toEqual([431, MALFORMED]);
    expect(huge.head).toContain('Connection: close');
    const garbage = parse(await rawExchange(port, 'token=abc\r\n\r\n'));
    expect([garbage.status, garbage.body]).toEqual([400, MALFORMED]);
    // Garbage right behind a complete request in the same packet: one answer, whichever of the two
    // is refused first (the request's 404 when its route answers at once), then the connection closes.
    const pipelined = await rawExchange(port, 'DELETE /api/user HTTP/1.1\r\nHost: x\r\n\r\ntoken=abc\r\n\r\n');
    expect(pipelined.match(/HTTP\/1\.1 \d{3} /g)).toHaveLength(1);
  });

  it('closes a refused connection for good even when the client never closes its side (no slowloris)', async () => {
    const port = await listening();
    const connections = () => new Promise<number>((resolve, reject) => t.app.server.getConnections((err, n) => (err ? reject(err) : resolve(n))));
    const socket = connect({ port, host: '127.0.0.1', allowHalfOpen: true }, () => socket.write('GET / HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n'));
    socket.on('data', () => {});
    await new Promise((resolve) => socket.once('end', resolve));
    // The client keeps its side open; the server must not wait for it.
    await expect.poll(connections, { timeout: 2_000 }).toBe(0);
    socket.destroy();
  });

  it('answers a request only once when its body turns out malformed after it was answered', async () => {
    const port = await listening();
    const raw = await rawExchange(port, 'GET /content/%E0%A4%A HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nZZ\r\nabc\r\n0\r\n\r\n');
    expect(raw.match(/HTTP\/1\.1 \d{3} /g)).toEqual(['HTTP/1.1 400 ']);
  });
});
