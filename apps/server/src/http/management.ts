import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { registry } from '../lib/metrics.ts';

export interface ManagementListener {
  /** The address it is bound to, and its port (the one asked for, or the one given for port 0). */
  host: string;
  port: number;
  close(): Promise<void>;
}

/**
 * The management listener (docs/operations.md "Metrics"): a plain HTTP server of its own, on its own
 * port and, unless configured, on loopback only, apart from the members' API, so that the metrics
 * are never served to the internet and a scrape never queues behind members' requests (nor counts
 * in their histograms). `GET /metrics` answers the registry in the Prometheus text format
 * (lib/metrics.ts); everything else 404. Started by main.ts once the app listens, closed after it.
 */
export async function startManagementListener(
  settings: { port: number; host?: string },
  log?: { warn(obj: object, msg: string): void },
): Promise<ManagementListener> {
  const host = settings.host ?? '127.0.0.1';
  const server: Server = createServer((request, response) => {
    const path = (request.url ?? '').split('?')[0];
    if (path !== '/metrics' || (request.method !== 'GET' && request.method !== 'HEAD')) {
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('not found\n');
      return;
    }
    registry.metrics().then(
      (text) => {
        response.writeHead(200, { 'content-type': registry.contentType, 'cache-control': 'no-store' });
        response.end(request.method === 'HEAD' ? undefined : text);
      },
      (err: unknown) => {
        log?.warn({ err }, 'metrics could not be collected');
        response.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end('metrics could not be collected\n');
      },
    );
  });
  // A scraper's keep-alive connection must not hold the process open at shutdown.
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(settings.port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const bound = server.address() as AddressInfo;
  return {
    host: bound.address,
    port: bound.port,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeIdleConnections();
      }),
  };
}
