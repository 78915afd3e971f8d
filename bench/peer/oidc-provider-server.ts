/**
 * node-oidc-provider (npm `oidc-provider`) as the benchmark's peer (docs/performance.md): its default
 * in-memory store, refresh-token rotation on, introspection enabled, and no request logging, as it
 * ships. One confidential client (client_secret_basic). It mints `BENCH_PEER_MEMBERS` sessions, each a
 * grant with an access token and a refresh token, the way its code exchange would, prints one JSON
 * line `{ "origin": …, "sessions": [{ "access": …, "refresh": … }, …] }` on stdout and serves until
 * it is stopped. Run by bench/lib/peer.ts in a process of its own, as the product's server is.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';
import { PEER_CLIENT } from './peer-client.ts';

const count = Number(process.env.BENCH_PEER_MEMBERS ?? '1000');
const server = createServer();
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

const provider = new Provider(origin, {
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
// Its warnings about the development keys and the in-memory adapter, once at start, are not requests.
provider.on('server_error', (_ctx, err) => console.error(err));
server.on('request', provider.callback());

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
