import type { FastifyInstance } from 'fastify';
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
import { cardRefreshRequestSchema } from '@sso/contracts/oauth-endpoints';
import { memberPost, noBody } from '../account/member-post.ts';
import { SCOPES } from '@sso/contracts/scopes';
import { parseOr901, parseOrInvalidRequest } from '../../http/parse.ts';
import { authenticateClient } from '../oauth/client-auth.ts';
import { activateCard } from './activation-service.ts';
import { addCard, type CardAddInput } from './card-add-service.ts';
import { enableCard, listCards, listWaitingCards, openSubuser, refreshCards, removeCards, type CardDeps } from './card-service.ts';
import { linkNetAnswer } from './net-answer-link-service.ts';
import { refreshCardSession, revokeMemberSession } from './session-service.ts';

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
  // A MemberCall is the card services' CardCaller: the member and the device of the request.
  memberPost(app, deps, '/api/subuser/cards', SCOPES.cardsRead, noBody, ({ user }) => listCards(deps, user.id));

  memberPost(app, deps, '/api/subuser/card/tokens', SCOPES.cardsRead, noBody, ({ user }) => listWaitingCards(deps, user.id));

  memberPost(app, deps, '/api/subuser/card/add', SCOPES.cardsWrite, parseCardAdd, (call) => addCard(deps, call, call.input));

  memberPost(app, deps, '/api/subuser/card/activate', SCOPES.cardsWrite, cardActivateRequestSchema, (call) =>
    activateCard(deps, call, call.input.subuser_id, { activationKey: call.input.activation_key }),
  );

  memberPost(app, deps, '/api/subuser/sc/activate/mobile', SCOPES.cardsWrite, mobileActivateRequestSchema, (call) =>
    activateCard(deps, call, call.input.subuser_id, { mobile: call.input.tel }),
  );

  memberPost(app, deps, '/api/subuser/card/enable', SCOPES.cardsWrite, cardEnableRequestSchema, (call) => enableCard(deps, call, call.input.card_token));

  memberPost(app, deps, '/api/subuser/card/update_relevant_tokens', SCOPES.cardsWrite, updateRelevantTokensRequestSchema, ({ user }) => refreshCards(deps, user.id));

  memberPost(app, deps, '/api/subuser/delete', SCOPES.cardsWrite, subuserDeleteRequestSchema, (call) => removeCards(deps, call, call.input.subuser_ids));

  memberPost(app, deps, '/api/subuser/na/add', SCOPES.cardsWrite, netAnswerAddRequestSchema, (call) => linkNetAnswer(deps, call, call.input));

  memberPost(app, deps, '/api/subuser/open', SCOPES.pointsRead, noBody, ({ user }) => openSubuser(deps, user));

  memberPost(app, deps, '/api/subuser/revoke', SCOPES.accountWrite, subuserRevokeRequestSchema, (call) =>
    revokeMemberSession(deps, call, { token: call.input.token, clientId: call.input.client_id }),
  );

  app.post('/api/auth/card/refresh_token', { config: { oauth: true } }, async (request, reply) => {
    const body = parseOrInvalidRequest(cardRefreshRequestSchema, request.body);
    const client = authenticateClient(deps.clients, request.headers.authorization, body);
    const tokens = await refreshCardSession(deps, { refreshToken: body.refresh_token, client, terminalId: body.terminal_id ?? null });
    return reply.header('Cache-Control', 'no-store').header('Pragma', 'no-cache').send(tokens);
  });
}
