import type { FastifyInstance } from 'fastify';
import type { ClientRegistry } from '../oauth/clients.ts';
import type { NetAnswerSimulator } from '../../ports/net-answer-simulator.ts';

export interface PartnerDemoDeps {
  clients: ClientRegistry;
  issuer: string;
  /** Absent when a test replaced Net Answer with its own adapter. */
  netAnswerSimulator: NetAnswerSimulator | undefined;
}

/** Issue 6 (placeholder until the module is built): development-only demo partner pages. */
export function registerPartnerDemoRoutes(_app: FastifyInstance, _deps: PartnerDemoDeps): void {}
