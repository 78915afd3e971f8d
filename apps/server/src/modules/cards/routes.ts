import type { FastifyInstance } from 'fastify';
import { cardAddFormSchema, cardAddRequestSchema } from '@sso/contracts/cards';
import { memberPost } from '../oauth/member-post.ts';
import { parseOr901 } from '../../http/parse.ts';
import type { ClientAuthDeps } from '../oauth/client-auth.ts';
import { clientPost } from '../oauth/client-route.ts';
import { activateCard } from './activation-service.ts';
import { addCard, type CardAddInput } from './card-add-service.ts';
import { enableCard, listCards, listWaitingCards, openSubuser, refreshCards, removeCards, type CardDeps } from './card-service.ts';
import { linkNetAnswer } from './net-answer-link-service.ts';
import { refreshCardSession, revokeMemberSession } from './session-service.ts';
import { tokenRequestKey } from '../oauth/dpop.ts';

const [cardTokenSchema] = cardAddRequestSchema.options;

/** An add names a waiting card by card_token, or a card by its number: each form has its own field errors (901). */
const parseCardAdd = (body: unknown): CardAddInput =>
  body !== null && typeof body === 'object' && 'card_token' in body ? parseOr901(cardTokenSchema, body) : parseOr901(cardAddFormSchema, body);

/**
 * The card (sub-user) endpoints (SPEC.md section 7, "Cards (sub-users)"; decision 0006). Each
 * checks the Bearer token before the body, so that a caller without one learns nothing but 401,
 * and every card is looked up with the member's id. Card answers are personal: never cached.
 */
export function registerCardRoutes(app: FastifyInstance, deps: CardDeps & ClientAuthDeps): void {
  // A MemberCall is the card services' CardCaller: the member and the device of the request.
  memberPost(app, deps, 'POST /api/subuser/cards', ({ user }) => listCards(deps, user.id));

  memberPost(app, deps, 'POST /api/subuser/card/tokens', ({ user }) => listWaitingCards(deps, user.id));

  memberPost(app, deps, 'POST /api/subuser/card/add', (call) => addCard(deps, call, call.input), parseCardAdd);

  memberPost(app, deps, 'POST /api/subuser/card/activate', (call) =>
    activateCard(deps, call, call.input.subuser_id, { activationKey: call.input.activation_key }),
  );

  memberPost(app, deps, 'POST /api/subuser/sc/activate/mobile', (call) =>
    activateCard(deps, call, call.input.subuser_id, { mobile: call.input.tel }),
  );

  memberPost(app, deps, 'POST /api/subuser/card/enable', (call) => enableCard(deps, call, call.input.card_token));

  memberPost(app, deps, 'POST /api/subuser/card/update_relevant_tokens', ({ user }) => refreshCards(deps, user.id));

  memberPost(app, deps, 'POST /api/subuser/delete', (call) => removeCards(deps, call, call.input.subuser_ids));

  memberPost(app, deps, 'POST /api/subuser/na/add', (call) => linkNetAnswer(deps, call, call.input));

  memberPost(app, deps, 'POST /api/subuser/open', ({ user }) => openSubuser(deps, user));

  memberPost(app, deps, 'POST /api/subuser/revoke', (call) =>
    revokeMemberSession(deps, call, { token: call.input.token, clientId: call.input.client_id }),
  );

  clientPost(app, deps, 'POST /api/auth/card/refresh_token', async (request, reply, body, client) => {
    const jkt = await tokenRequestKey(deps, request, reply, client);
    const tokens = await refreshCardSession(deps, { refreshToken: body.refresh_token, client, terminalId: body.terminal_id ?? null, jkt });
    return reply.header('Cache-Control', 'no-store').header('Pragma', 'no-cache').send(tokens);
  });
}
