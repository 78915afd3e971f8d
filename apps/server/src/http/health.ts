import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { HealthResponse } from '@sso/contracts/health';
import type { Db } from '../db/database.ts';
import { pendingMigrations } from '../db/migrations.ts';
import { route } from './route.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Turns the node not ready for good (SIGTERM, http/shutdown.ts): readiness answers 503 `draining`, liveness still 200. */
    startDraining(): void;
  }
}

/** The probes' paths, which the out-of-service mode leaves answering (out-of-service.ts). */
export const HEALTH_PATHS: ReadonlySet<string> = new Set(['/api/health', '/api/health/live', '/api/health/ready']);

export interface HealthDeps {
  db: Db;
  /** Resolves once the key that signs now is loaded and opened (modules/oidc/signing-keys.ts); rejects when it cannot be. */
  signingKeyLoaded(): Promise<unknown>;
}

/** The first readiness check that fails, or undefined when the node can serve. */
async function failingCheck(deps: HealthDeps, draining: boolean, request: FastifyRequest): Promise<HealthResponse['failing']> {
  if (draining) return 'draining';
  const checks: [NonNullable<HealthResponse['failing']>, () => Promise<boolean>][] = [
    ['database', async () => (await deps.db.ping(), true)],
    ['migrations', async () => (await pendingMigrations(deps.db.kysely)).length === 0],
    ['signing_key', async () => (await deps.signingKeyLoaded(), true)],
  ];
  for (const [name, passes] of checks) {
    // The reason goes to the log only: the answer names the check and nothing more.
    const ok = await passes().catch((err: unknown) => (request.log.warn({ err }, `readiness check failed: ${name}`), false));
    if (!ok) return name;
  }
  return undefined;
}

/**
 * The probes for the load balancer and Kubernetes (docs/operations.md "Health and draining"):
 * - GET /api/health/live: the process answers. Always 200 and reads nothing, so that a database
 *   outage never restarts every node at once.
 * - GET /api/health/ready: 200 while the node can serve (the database answers, every migration is
 *   applied, the signing key is loaded); 503 naming the first check that fails, and 503 `draining`
 *   from SIGTERM on (http/shutdown.ts), so that the balancer stops sending before the node closes.
 * - GET /api/health: the readiness check's older name (the start scripts and the smoke test use it).
 * Each call checks again and keeps nothing. The out-of-service mode leaves all three answering.
 */
export function registerHealth(app: FastifyInstance, deps: HealthDeps): void {
  let draining = false;
  app.decorate('startDraining', () => {
    draining = true;
  });
  const ready = async (request: FastifyRequest, reply: FastifyReply) => {
    reply.header('Cache-Control', 'no-store');
    const failing = await failingCheck(deps, draining, request);
    if (failing) return reply.code(503).send({ status: 'unavailable', failing } satisfies HealthResponse);
    return { status: 'ok' } satisfies HealthResponse;
  };
  route(app, 'GET /api/health/ready', ready);
  route(app, 'GET /api/health', ready);
  route(app, 'GET /api/health/live', async (_request, reply) => {
    reply.header('Cache-Control', 'no-store');
    return { status: 'ok' };
  });
}
