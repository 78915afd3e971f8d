import { subscribe } from 'node:diagnostics_channel';
import type { FastifyInstance } from 'fastify';

/** What a route declares in its config: the Bearer scope (oauth/bearer.ts), the operator role (modules/operators/operator-post.ts) and RFC 6749 error bodies (http/error-handler.ts). */
export interface RouteDeclaration {
  scope?: string;
  role?: string;
  oauth?: boolean;
}

/**
 * Every route the Fastify apps built after this call register, by `METHOD url` (Fastify's automatic
 * HEAD twins of GET routes included), with what its config declares: caught as Fastify registers
 * them, through an `onRoute` hook attached on Fastify's `fastify.initialization` diagnostics channel
 * before the first route (those of http/route.ts and of plugins included). Call it at
 * the top of a test file.
 */
export function catchRegisteredRoutes(): Map<string, RouteDeclaration> {
  const routes = new Map<string, RouteDeclaration>();
  subscribe('fastify.initialization', (message) => {
    const { fastify } = message as { fastify: FastifyInstance };
    fastify.addHook('onRoute', (route) => {
      const config = (route.config ?? {}) as RouteDeclaration;
      for (const method of [route.method].flat()) routes.set(`${method} ${route.url ?? route.path}`, { scope: config.scope, role: config.role, oauth: config.oauth });
    });
  });
  return routes;
}
