import { buildApp } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';
import { startManagementListener, type ManagementListener } from './http/management.ts';
import { shutDown } from './http/shutdown.ts';

/** Starts the server: one Node process serving the SPA at /content and the API at /api. */
async function main() {
  let config;
  try {
    config = loadConfig();
  } catch (e) {
    if (e instanceof ConfigError) {
      console.error(e.message);
      process.exit(1);
    }
    throw e;
  }
  const app = await buildApp(config);
  // Drain, then close (http/shutdown.ts): exit 0 once closed, 1 when the close fails or outlasts SHUTDOWN_TIMEOUT_MS.
  // A second signal while it runs changes nothing.
  let stopping = false;
  let management: ManagementListener | undefined;
  const shutdown = async () => {
    if (stopping) return;
    stopping = true;
    // The metrics stay scraped while the node drains and closes; their listener closes last.
    const closeBoth = async () => {
      await app.close();
      await management?.close();
    };
    const outcome = await shutDown(
      { startDraining: () => app.startDraining(), close: closeBoth, log: { info: (m) => app.log.info(m), error: (m) => app.log.error(m) } },
      { drainMs: config.shutdownDrainMs, timeoutMs: config.shutdownTimeoutMs },
    );
    process.exit(outcome === 'closed' ? 0 : 1);
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
  // GET /metrics on a listener of its own (http/management.ts), unless METRICS_PORT=off: bound before
  // the API, so that a port already taken stops the start before the node takes any traffic.
  if (config.metricsPort !== undefined) {
    management = await startManagementListener({ port: config.metricsPort, host: config.metricsHost }, app.log);
    app.log.info(`metrics at http://${config.metricsHost}:${management.port}/metrics`);
  }
  await app.listen({ port: config.port, host: config.host });
  app.log.info(`member SSO listening on ${config.publicOrigin}/content`);
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
