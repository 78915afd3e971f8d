import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { Clock } from '../../lib/clock.ts';
import type { CardMaster } from '../../ports/card-master.ts';
import type { NetAnswer } from '../../ports/net-answer.ts';
import type { PointLedger } from '../../ports/point-ledger.ts';
import type { ClientRegistry } from '../oauth/clients.ts';
import type { Notifier } from '../notifications/notifier.ts';

export interface CardDeps {
  db: Kysely<Database>;
  clock: Clock;
  clients: ClientRegistry;
  issuer: string;
  notifier: Notifier;
  cardMaster: CardMaster;
  netAnswer: NetAnswer;
  pointLedger: PointLedger;
}

/** Issue 6 (placeholder until the module is built). */
export function registerCardRoutes(_app: FastifyInstance, _deps: CardDeps): void {}
