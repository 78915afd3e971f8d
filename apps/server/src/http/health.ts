import type { FastifyInstance } from 'fastify';
import type { Db } from '../db/database.ts';
import { route } from './route.ts';

/**
 * GET /api/health for the load balancer and the start scripts: 200 while the database can take a
 * write, 503 while it cannot (locked, stopped, unreachable), so that a balancer sends members to a
 * node that can serve them. It checks the database on each call and keeps nothing: the node is
 * healthy again as soon as the database is. The out-of-service mode leaves it answering.
 */
export function registerHealth(app: FastifyInstance, db: Db): void {
  route(app, 'GET /api/health', async (request, reply) => {
    reply.header('Cache-Control', 'no-store');
    try {
      await db.ping();
      return { status: 'ok' };
    } catch (err) {
      request.log.warn({ err }, 'health check: database unavailable');
      return reply.code(503).send({ status: 'unavailable' });
    }
  });
}
