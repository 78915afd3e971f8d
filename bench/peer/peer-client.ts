/** The one client node-oidc-provider registers as the benchmark's peer (oidc-provider-server.ts), and the credentials the bench drives it with (bench/lib/peer.ts). */
export const PEER_CLIENT = { id: 'bench-peer', secret: 'bench-peer-secret-of-some-length' } as const;
