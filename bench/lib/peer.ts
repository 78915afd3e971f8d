import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { ROOT } from '@sso/server/test-support';
import { PEER_CLIENT } from '../peer/peer-client.ts';
import { basicAuth, type HttpClient } from './http.ts';
import type { Job, NextJob } from './load.ts';
import { failed, OK, type Outcome } from './stats.ts';

const PEER_AUTH = basicAuth(PEER_CLIENT.id, PEER_CLIENT.secret);

interface PeerSession {
  access: string;
  refresh: string;
}

export interface PeerProvider {
  origin: string;
  pid: number;
  /** Jobs of one operation for idle sessions: `refresh` rotates each session's chain, `introspect` reads its access token. */
  jobs(http: HttpClient, op: 'refresh' | 'introspect'): NextJob;
  /**
   * Its sessions: how many were minted, and how many have not been retired (a refresh that failed
   * leaves an unknown chain). With its durable store (bench/peer/sqlite-adapter.ts) none should be;
   * its default in-memory store, an LRU of about a thousand entries, evicted most of them.
   */
  sessions(): { minted: number; live: number };
  stop(): Promise<void>;
}

const parse = (text: string): Record<string, unknown> => {
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch {
    return {};
  }
};

/** node-oidc-provider's refresh grant with client_secret_basic (PEER_AUTH), checked to answer no ID token. */
const refresh = async (http: HttpClient, s: PeerSession): Promise<Outcome> => {
  const a = await http.post('/token', { form: { grant_type: 'refresh_token', refresh_token: s.refresh } }, PEER_AUTH);
  const j = parse(a.text);
  if (a.status !== 200 || typeof j.refresh_token !== 'string' || typeof j.access_token !== 'string') return failed(`peer refresh HTTP ${a.status} ${String(j.error ?? '')}`);
  // Like the product's partnerRefresh it is weighed against: a plain rotation, no ID token signed.
  if (typeof j.id_token === 'string') return failed('peer refresh with an ID token');
  s.refresh = j.refresh_token;
  s.access = j.access_token;
  return OK;
};

const introspect = async (http: HttpClient, s: PeerSession): Promise<Outcome> => {
  const a = await http.post('/token/introspection', { form: { token: s.access } }, PEER_AUTH);
  if (a.status !== 200) return failed(`peer introspection HTTP ${a.status}`);
  return parse(a.text).active === true ? OK : failed('peer introspection inactive');
};

/**
 * node-oidc-provider beside the product (docs/performance.md): started in a process of its own with
 * `members` sessions minted, its store and its request log in a directory of its own (removed at
 * the end), driven by the same HTTP client and closed loop as the product.
 */
export async function startPeerProvider(members: number): Promise<PeerProvider> {
  const dir = mkdtempSync(join(tmpdir(), 'sso-bench-peer-'));
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/peer/oidc-provider-server.ts'], {
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: 'production', BENCH_PEER_MEMBERS: String(members), BENCH_PEER_DB: join(dir, 'peer.db'), BENCH_PEER_LOG: join(dir, 'requests.log') },
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const first = await new Promise<string>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout });
    // Its warning about the development keys comes on stdout before the sessions' line.
    lines.on('line', (line) => {
      if (!line.startsWith('{"origin"')) return;
      lines.close();
      resolve(line);
    });
    child.once('exit', (code) => reject(new Error(`the peer provider exited with ${code} before it served`)));
  });
  const { origin, sessions } = JSON.parse(first) as { origin: string; sessions: PeerSession[] };
  const idle = [...sessions];
  let retired = 0;
  return {
    origin,
    pid: child.pid as number,
    jobs: (http, op) => (): Job | undefined => {
      if (idle.length === 0) return undefined;
      const i = Math.floor(Math.random() * idle.length);
      const session = idle[i] as PeerSession;
      idle[i] = idle[idle.length - 1] as PeerSession;
      idle.pop();
      return {
        op: `peer ${op}`,
        run: async () => {
          const outcome = await (op === 'refresh' ? refresh : introspect)(http, session);
          // A failed refresh leaves an unknown chain: the session is retired, as MemberPool does.
          if (outcome.ok || op === 'introspect') idle.push(session);
          else retired++;
          return outcome;
        },
      };
    },
    sessions: () => ({ minted: sessions.length, live: sessions.length - retired }),
    stop: async () => {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await new Promise((r) => child.once('exit', r));
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
