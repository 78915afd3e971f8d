import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  cardActivateRequestSchema,
  cardAddFormSchema,
  cardAddRequestSchema,
  cardEnableRequestSchema,
  mobileActivateRequestSchema,
  netAnswerAddRequestSchema,
  subuserDeleteRequestSchema,
  subuserRevokeRequestSchema,
  updateRelevantTokensRequestSchema,
} from '@sso/contracts/cards';
import { parseOr901, parseOrInvalidRequest } from '../../http/parse.ts';
import { describeDevice } from '../../lib/device.ts';
import { currentUser } from '../account/current-user.ts';
import { authenticateClient } from '../oauth/client-auth.ts';
import { activateCard } from './activation-service.ts';
import { addCard, type CardAddInput } from './card-add-service.ts';
import { enableCard, listCards, listWaitingCards, openSubuser, refreshCards, removeCards, type CardCaller, type CardDeps } from './card-service.ts';
import { linkNetAnswer } from './net-answer-link-service.ts';
import { refreshCardSession, revokeMemberSession } from './session-service.ts';

const optional = z.string().max(4096).optional();
/** The card refresh's form (RFC 6749 section 6), as the token endpoint reads it. */
const cardRefreshRequestSchema = z.object({
  refresh_token: z.string().min(1).max(4096),
  client_id: optional,
  client_secret: optional,
  terminal_id: z.string().max(128).optional(),
});

const [cardTokenSchema] = cardAddRequestSchema.options;

/** An add names a waiting card by card_token, or a card by its number: each form has its own field errors (901). */
const parseCardAdd = (body: unknown): CardAddInput =>
  body !== null && typeof body === 'object' && 'card_token' in body ? parseOr901(cardTokenSchema, body) : parseOr901(cardAddFormSchema, body);

/**
 * The card (sub-user) endpoints (SPEC.md section 7, "Cards (sub-users)"; decision 0006). Each
 * checks the Bearer token before the body, so that a caller without one learns nothing but 401,
 * and every card is looked up with the member's id. Card answers are personal: never cached.
 */
export function registerCardRoutes(app: FastifyInstance, deps: CardDeps): void {
  /** The member and device of a Bearer request; the answer is marked no-store. */
  const caller = async (request: FastifyRequest, reply: FastifyReply): Promise<CardCaller> => {
    const user = await currentUser(deps, request);
    reply.header('Cache-Control', 'no-store');
    return { user, device: describeDevice(request.headers['user-agent']) };
  };

  app.post('/api/subuser/cards', async (request, reply) => listCards(deps, (await caller(request, reply)).user.id));

  app.post('/api/subuser/card/tokens', async (request, reply) => listWaitingCards(deps, (await caller(request, reply)).user.id));

  app.post('/api/subuser/card/add', async (request, reply) => {
    const who = await caller(request, reply);
    return addCard(deps, who, parseCardAdd(request.body));
  });

  app.post('/api/subuser/card/activate', async (request, reply) => {
    const who = await caller(request, reply);
    const input = parseOr901(cardActivateRequestSchema, request.body);
    return activateCard(deps, who, input.subuser_id, { activationKey: input.activation_key });
  });

  app.post('/api/subuser/sc/activate/mobile', async (request, reply) => {
    const who = await caller(request, reply);
    const input = parseOr901(mobileActivateRequestSchema, request.body);
    return activateCard(deps, who, input.subuser_id, { mobile: input.tel });
  });

  app.post('/api/subuser/card/enable', async (request, reply) => {
    const who = await caller(request, reply);
    return enableCard(deps, who, parseOr901(cardEnableRequestSchema, request.body).card_token);
  });

  app.post('/api/subuser/card/update_relevant_tokens', async (request, reply) => {
    const who = await caller(request, reply);
    parseOr901(updateRelevantTokensRequestSchema, request.body);
    return refreshCards(deps, who.user.id);
  });

  app.post('/api/subuser/delete', async (request, reply) => {
    const who = await caller(request, reply);
    return removeCards(deps, who, parseOr901(subuserDeleteRequestSchema, request.body).subuser_ids);
  });

  app.post('/api/subuser/na/add', async (request, reply) => {
    const who = await caller(request, reply);
    return linkNetAnswer(deps, who, parseOr901(netAnswerAddRequestSchema, request.body));
  });

  app.post('/api/subuser/open', async (request, reply) => openSubuser(deps, (await caller(request, reply)).user));

  app.post('/api/subuser/revoke', async (request, reply) => {
    const who = await caller(request, reply);
    const input = parseOr901(subuserRevokeRequestSchema, request.body);
    return revokeMemberSession(deps, who, { token: input.token, clientId: input.client_id });
  });

  app.post('/api/auth/card/refresh_token', { config: { oauth: true } }, async (request, reply) => {
    const body = parseOrInvalidRequest(cardRefreshRequestSchema, request.body);
    const client = authenticateClient(deps.clients, request.headers.authorization, body);
    const tokens = await refreshCardSession(deps, { refreshToken: body.refresh_token, client, terminalId: body.terminal_id ?? null });
    return reply.header('Cache-Control', 'no-store').header('Pragma', 'no-cache').send(tokens);
  });
}
