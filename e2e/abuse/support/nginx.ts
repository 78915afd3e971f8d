import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startForegroundServer } from '../../support/foreground-server.ts';

/** Debian's nginx, installed by scripts/setup-machine.sh (which honours the same variable). */
export const NGINX = process.env.NGINX_PATH ?? '/usr/sbin/nginx';

/** The header naming the node (upstream address) that answered a request through the balancer. */
export const UPSTREAM_HEADER = 'x-upstream';

export interface Balancer {
  /** http://localhost:<port>: the origin members and partners see, the nodes' PUBLIC_ORIGIN. */
  origin: string;
  stop(): Promise<void>;
}

/**
 * The balancer's configuration: round robin over the nodes without affinity, keep-alive to them, and
 * the X-Forwarded-* headers a TRUST_PROXY=true node reads (docs/operations.md "Running many nodes").
 * Every path nginx could default to outside the temporary directory is set inside it.
 */
function config(dir: string, port: number, nodePorts: number[]): string {
  const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((t) => `  ${t}_temp_path ${dir}/${t}_temp;`).join('\n');
  // max_fails=0: a node is never taken out of the rotation, so that requests alternate predictably.
  const servers = nodePorts.map((p) => `    server 127.0.0.1:${p} max_fails=0;`).join('\n');
  return `worker_processes 1;
error_log ${dir}/error.log warn;
pid ${dir}/nginx.pid;
events { worker_connections 512; }
http {
  access_log off;
${temp}
  upstream nodes {
${servers}
    keepalive 16;
  }
  server {
    listen 127.0.0.1:${port};
    location / {
      proxy_pass http://nodes;
      # Keep-alive to the nodes needs HTTP/1.1 without the client's Connection header.
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $http_host;
      # nginx is the edge: it replaces any X-Forwarded-For the client sent, so that a client cannot
      # choose the address a TRUST_PROXY=true node believes (Fastify trusts every hop then).
      proxy_set_header X-Forwarded-For $remote_addr;
      proxy_set_header X-Forwarded-Proto $scheme;
      proxy_set_header X-Forwarded-Host $http_host;
      # A POST is never sent again to the other node (nginx's default, stated): a one-time secret
      # must not be presented twice by the balancer itself.
      proxy_next_upstream error timeout;
      add_header X-Upstream $upstream_addr always;
    }
  }
}
`;
}

/** Starts nginx in the foreground on 127.0.0.1:`port` in front of the nodes on `nodePorts`. */
export async function startBalancer(port: number, nodePorts: number[]): Promise<Balancer> {
  const dir = mkdtempSync(join(tmpdir(), 'sso-nginx-'));
  // Run as root, nginx's worker drops to an unprivileged user, which must reach its temp paths here.
  chmodSync(dir, 0o755);
  writeFileSync(join(dir, 'nginx.conf'), config(dir, port, nodePorts));
  const origin = `http://localhost:${port}`;
  const server = await startForegroundServer({
    name: 'nginx',
    command: NGINX,
    args: ['-p', dir, '-e', join(dir, 'error.log'), '-c', join(dir, 'nginx.conf'), '-g', 'daemon off;'],
    dir,
    errorLog: join(dir, 'error.log'),
    readyUrl: `${origin}/api/health`,
  });
  return { origin, stop: server.stop };
}
