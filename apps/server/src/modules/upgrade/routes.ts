import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  numberlessOtpRequestSchema,
  numberlessRequestSchema,
  upgradeConfirmRequestSchema,
  upgradeRegisterRequestSchema,
} from '@sso/contracts/upgrade';
import { backgroundTasks } from '../../http/background.ts';
import { parseOr901 } from '../../http/parse.ts';
import { describeDevice } from '../../lib/device.ts';
import { currentUser } from '../account/current-user.ts';
import { confirmUpgrade } from './confirm-service.ts';
import type { FlowContext, UpgradeDeps } from './member-flow-service.ts';
import { confirmNumberless, startNumberless } from './numberless-service.ts';
import { registerCard } from './register-service.ts';

const context = (request: FastifyRequest): FlowContext => ({ device: describeDevice(request.headers['user-agent']) });

/**
 * The endpoints SPEC.md section 7 names without a flow (docs/decisions/0006): the numberless card
 * and the upgrade of an open member to a card member. The Bearer token is checked before the body,
 * so that a caller without one learns nothing but 401. Answers carry register_tokens: never cached.
 */
export function registerUpgradeRoutes(app: FastifyInstance, deps: UpgradeDeps): void {
  const withBackground = { ...deps, background: backgroundTasks(app) };
  app.post('/api/auth/numberless', async (request, reply) => {
    const user = await currentUser(deps, request);
    const input = parseOr901(numberlessRequestSchema, request.body);
    reply.header('Cache-Control', 'no-store');
    return startNumberless(withBackground, user, input);
  });

  app.post('/api/auth/numberless/otp', async (request, reply) => {
    const user = await currentUser(deps, request);
    const input = parseOr901(numberlessOtpRequestSchema, request.body);
    reply.header('Cache-Control', 'no-store');
    return confirmNumberless(deps, user, input, context(request));
  });

  app.post('/api/auth/register', async (request, reply) => {
    const user = await currentUser(deps, request);
    const input = parseOr901(upgradeRegisterRequestSchema, request.body);
    reply.header('Cache-Control', 'no-store');
    return registerCard(deps, user, input);
  });

  app.post('/api/auth/upgrade/sc', async (request, reply) => {
    const input = parseOr901(upgradeConfirmRequestSchema, request.body);
    reply.header('Cache-Control', 'no-store');
    return confirmUpgrade(deps, input, context(request));
  });
}
