import type { FastifyInstance } from 'fastify';
import { route } from '../../http/route.ts';
import { describeDevice } from '../../lib/device.ts';
import { reportNotMe, type NotMeDeps } from './not-me-service.ts';

/** The "not me" link of the notice mails (docs/decisions/0033-not-me-link.md): public, the page posts its token. */
export function registerNotMeRoutes(app: FastifyInstance, deps: NotMeDeps): void {
  route(app, 'POST /api/auth/not-me', async (request, reply, input) =>
    reply.header('Cache-Control', 'no-store').send(await reportNotMe(deps, input, { device: describeDevice(request.headers['user-agent']) })),
  );
}
