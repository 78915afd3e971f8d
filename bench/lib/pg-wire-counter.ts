import { createServer, connect, type Server, type Socket } from 'node:net';

/**
 * A PostgreSQL wire-protocol relay that counts what a client's connections ask of the server
 * (bench/statements.ts): put between the server under test and its database (DATABASE_URL names
 * the relay), it passes every byte on unchanged and reads both directions as the protocol frames
 * them (PostgreSQL's "Frontend/Backend Protocol", chapter "Message Formats").
 *
 * - A statement is one the server completed or refused: a CommandComplete, EmptyQueryResponse or
 *   ErrorResponse message from the backend, whatever the client sent (a simple Query of several
 *   statements counts each; `begin` and `commit` are statements).
 * - A round trip is a ReadyForQuery message: the backend's answer to a Sync (the end of an extended
 *   query: Parse, Bind, Describe, Execute sent together) or to a simple Query, after which the client
 *   may send again. The one that ends a connection's start-up is not counted (`connections` is).
 *
 * The frontend side names the statements: the SQL of each simple Query and of each Execute's
 * prepared statement (a named statement is parsed once per connection, then only bound).
 */
export interface WireCounts {
  statements: number;
  roundTrips: number;
  connections: number;
  /** The SQL of each statement the client ran, in order (each Execute's or simple Query's text). */
  sql: string[];
}

export interface WireCounter {
  /** The relay's URL: `target` with the relay's host and port. */
  url: string;
  /** The counts since the start or the last reset. */
  counts(): WireCounts;
  reset(): void;
  close(): Promise<void>;
}

const SSL_REQUEST = 80877103;
const GSSENC_REQUEST = 80877104;

/** Splits a stream of protocol messages: `type` is the first byte, or undefined for the untyped start-up messages. */
class Framer {
  private buffer: Buffer = Buffer.alloc(0);
  constructor(
    private untyped: number,
    private readonly onMessage: (type: string | undefined, body: Buffer) => void,
  ) {}

  /** The next message is untyped (the client's start-up after a refused SSL or GSS request). */
  expectUntyped(): void {
    this.untyped++;
  }

  push(chunk: Buffer): void {
    this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
    for (;;) {
      const typed = this.untyped === 0;
      const header = typed ? 5 : 4;
      if (this.buffer.length < header) return;
      const length = this.buffer.readInt32BE(typed ? 1 : 0);
      const total = (typed ? 1 : 0) + length;
      if (this.buffer.length < total) return;
      const type = typed ? String.fromCharCode(this.buffer[0] as number) : undefined;
      const body = this.buffer.subarray(header, total);
      this.buffer = this.buffer.subarray(total);
      if (!typed) this.untyped--;
      this.onMessage(type, body);
    }
  }
}

/** A NUL-terminated string at `offset` of a message body, and the offset after it. */
function cstring(body: Buffer, offset: number): [string, number] {
  const end = body.indexOf(0, offset);
  return [body.toString('utf8', offset, end), end + 1];
}

/** Starts a relay on 127.0.0.1 to the PostgreSQL server of `target` (a postgres:// URL). */
export async function startWireCounter(target: string): Promise<WireCounter> {
  const upstream = new URL(target);
  let counts: WireCounts = { statements: 0, roundTrips: 0, connections: 0, sql: [] };
  const sockets = new Set<Socket>();

  const relay = (client: Socket) => {
    const server = connect(Number(upstream.port || 5432), upstream.hostname);
    sockets.add(client);
    sockets.add(server);
    const prepared = new Map<string, string>();
    const portals = new Map<string, string>();
    let started = false;
    // A refused SSL or GSS request is answered with one byte ('N'), outside the message framing.
    let singleByteAnswers = 0;

    const frontend = new Framer(1, (type, body) => {
      if (type === undefined) {
        const code = body.readInt32BE(0);
        if (code === SSL_REQUEST || code === GSSENC_REQUEST) {
          singleByteAnswers++;
          frontend.expectUntyped();
        }
        return;
      }
      if (type === 'Q') counts.sql.push(cstring(body, 0)[0]);
      else if (type === 'P') {
        const [name, next] = cstring(body, 0);
        prepared.set(name, cstring(body, next)[0]);
      } else if (type === 'B') {
        const [portal, next] = cstring(body, 0);
        portals.set(portal, prepared.get(cstring(body, next)[0]) ?? '?');
      } else if (type === 'E') counts.sql.push(portals.get(cstring(body, 0)[0]) ?? '?');
    });
    const backend = new Framer(0, (type) => {
      if (type === 'C' || type === 'I' || type === 'E') counts.statements++;
      else if (type === 'Z') {
        if (started) counts.roundTrips++;
        else {
          started = true;
          counts.connections++;
        }
      }
    });

    client.on('data', (chunk: Buffer) => {
      frontend.push(chunk);
      server.write(chunk);
    });
    server.on('data', (chunk: Buffer) => {
      let rest = chunk;
      while (singleByteAnswers > 0 && rest.length > 0) {
        singleByteAnswers--;
        rest = rest.subarray(1);
      }
      if (rest.length > 0) backend.push(rest);
      client.write(chunk);
    });
    const end = () => {
      client.destroy();
      server.destroy();
      sockets.delete(client);
      sockets.delete(server);
    };
    client.on('close', end).on('error', end);
    server.on('close', end).on('error', end);
  };

  const listener: Server = createServer(relay);
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  const address = listener.address();
  if (address === null || typeof address === 'string') throw new Error('the relay has no port');
  const url = new URL(target);
  url.hostname = '127.0.0.1';
  url.port = String(address.port);
  return {
    url: url.toString(),
    counts: () => ({ ...counts, sql: [...counts.sql] }),
    reset: () => {
      counts = { statements: 0, roundTrips: 0, connections: 0, sql: [] };
    },
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => listener.close(() => resolve()));
    },
  };
}
