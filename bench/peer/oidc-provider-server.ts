/**
 * node-oidc-provider (npm `oidc-provider`) as the benchmark's peer (docs/performance.md), as a
 * deployment would run it: a durable store (sqlite-adapter.ts, a SQLite file at `BENCH_PEER_DB` set
 * up as the product's), refresh-token rotation on, introspection enabled, and a request log as the
 * product's production build keeps it (a pino-shaped JSON line when a request comes in and one when it
 * is answered, with its request id, appended to `BENCH_PEER_LOG`). One confidential client
 * (client_secret_basic). It mints `BENCH_PEER_MEMBERS` sessions, each a grant with an access token
 * and a refresh token, the way its code exchange would, prints one JSON line
 * `{ "origin": …, "sessions": [{ "access": …, "refresh": … }, …] }` on stdout and serves until it
 * is stopped. Run by bench/lib/peer.ts in a process of its own, as the product's server is.
 */
import { createWriteStream } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { hostname } from 'node:os';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';
import { PEER_CLIENT } from './peer-client.ts';
import { sqliteAdapter } from './sqlite-adapter.ts';

const count = Number(process.env.BENCH_PEER_MEMBERS ?? '1000');
const dbFile = process.env.BENCH_PEER_DB;
const logFile = process.env.BENCH_PEER_LOG;
if (!dbFile || !logFile) throw new Error('BENCH_PEER_DB and BENCH_PEER_LOG name the store and the request log');
const server = createServer();
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

const provider = new Provider(origin, {
  adapter: sqliteAdapter(dbFile),
  clients: [
    {
      client_id: PEER_CLIENT.id,
      client_secret: PEER_CLIENT.secret,
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      redirect_uris: ['https://peer.example/callback'],
      token_endpoint_auth_method: 'client_secret_basic',
    },
  ],
  features: { introspection: { enabled: true }, devInteractions: { enabled: false } },
  rotateRefreshToken: true,
  issueRefreshToken: () => true,
  findAccount: (_ctx, id) => ({ accountId: id, claims: () => ({ sub: id }) }),
});
// Its warning about the development keys, once at start, is not a request.
provider.on('server_error', (_ctx, err) => console.error(err));
const callback = provider.callback();
const log = createWriteStream(logFile, { flags: 'a' });
const logged = { pid: process.pid, hostname: hostname() };
let requests = 0;
/** The two lines pino-http-style loggers (Fastify's among them) write at info: the request, and its answer with the time it took. */
server.on('request', (req: IncomingMessage, res: ServerResponse) => {
  const reqId = `req-${(++requests).toString(36)}`;
  const started = performance.now();
  const request = { method: req.method, url: req.url, host: req.headers.host, remoteAddress: req.socket.remoteAddress, remotePort: req.socket.remotePort };
  log.write(`${JSON.stringify({ level: 30, time: Date.now(), ...logged, reqId, req: request, msg: 'incoming request' })}\n`);
  res.once('finish', () => {
    const line = { level: 30, time: Date.now(), ...logged, reqId, res: { statusCode: res.statusCode }, responseTime: performance.now() - started, msg: 'request completed' };
    log.write(`${JSON.stringify(line)}\n`);
  });
  void callback(req, res);
});

const client = await provider.Client.find(PEER_CLIENT.id);
if (!client) throw new Error('the peer client is not registered');
const sessions: { access: string; refresh: string }[] = [];
for (let i = 0; i < count; i++) {
  const accountId = `member-${i}`;
  const grant = new provider.Grant({ accountId, clientId: PEER_CLIENT.id });
  grant.addOIDCScope('openid offline_access');
  const grantId = await grant.save();
  const common = { accountId, client, grantId, scope: 'offline_access', gty: 'authorization_code' };
  const refresh = await new provider.RefreshToken({ ...common, authTime: Math.floor(Date.now() / 1000) }).save();
  const access = await new provider.AccessToken(common).save();
  sessions.push({ access, refresh });
}
process.stdout.write(`${JSON.stringify({ origin, sessions })}\n`);
process.on('SIGTERM', () => server.close(() => process.exit(0)));
