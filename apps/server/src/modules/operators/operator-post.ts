import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { OperatorKey } from '@sso/contracts/api-catalogue';
import { API } from '@sso/contracts/api-catalogue';
import { roleAllows, type OperatorRole } from '@sso/contracts/operators';
import { RESULT } from '@sso/contracts/result-codes';
import { SERVER_MESSAGES } from '@sso/contracts/messages';
import { readBody, readInHandler, route, type BodyOf } from '../../http/route.ts';
import { AppError, unauthorizedError } from '../../lib/app-error.ts';
import { sha256 } from '../../lib/secrets.ts';
import { authenticateAccessToken, type TokenDeps } from '../oauth/token-service.ts';
import { OPERATOR_LIMITS, OPERATOR_TOKEN_PREFIX } from './limits.ts';
import type { OperatorDeps } from './operator-deps.ts';
import { useLiveSession } from './operator-repo.ts';
import type { OperatorSession } from './session-service.ts';

/** What an operator endpoint's handler gets: the live session and its operator, the body read, and where the request came from. */
export interface OperatorCall<I> {
  session: OperatorSession;
  input: I;
  address: string;
  requestId: string;
  request: FastifyRequest;
  /** For an answer other than one JSON document (a stream of JSON Lines); the handler then returns the reply. */
  reply: FastifyReply;
}

// RFC 6750 section 3: a request without a token gets the bare challenge, a bad token `invalid_token`.
const NO_TOKEN = 'Bearer';
const BAD_TOKEN = 'Bearer error="invalid_token"';

/**
 * 403 with result 300 (RFC 6750 section 3.1, `insufficient_scope`): a live token that does not reach
 * this operation: a member's access token (another audience), or an operator's of a lesser role.
 */
const notThisAudience = (needed: OperatorRole, why: string) =>
  new AppError(RESULT.ACCESS_DENIED, SERVER_MESSAGES.accessDenied, 403, undefined, {
    challenge: `Bearer error="insufficient_scope", error_description="${why}", scope="operator:${needed}"`,
  });

/**
 * The live operator session of the request's Bearer token, holding the role `needed` (decision 0032).
 * No token, or a dead one (ended, past its idle or absolute limit, its operator disabled), is 401; a
 * live member access token is 403 (it is for the member API, not this one); an operator of a lesser
 * role is 403. Each use moves the idle limit on, in the same conditional update that checks it.
 */
export async function requireOperator(deps: OperatorDeps & Pick<TokenDeps, 'clients'>, request: FastifyRequest, needed: OperatorRole): Promise<OperatorSession> {
  const header = request.headers.authorization;
  if (!header) throw unauthorizedError(NO_TOKEN);
  const token = /^Bearer ([A-Za-z0-9\-._~+/]+=*)$/.exec(header)?.[1];
  if (!token) throw unauthorizedError(BAD_TOKEN);
  const now = deps.clock.now();
  if (!token.startsWith(OPERATOR_TOKEN_PREFIX)) {
    if (await authenticateAccessToken(deps, token)) throw notThisAudience(needed, 'a member token is not an operator token');
    throw unauthorizedError(BAD_TOKEN);
  }
  const session = await useLiveSession(deps.db, sha256(token), now, OPERATOR_LIMITS.sessionIdleMs);
  if (!session) throw unauthorizedError(BAD_TOKEN);
  if (!roleAllows(session.role as OperatorRole, needed)) throw notThisAudience(needed, 'the operator role does not reach this operation');
  return session;
}

/**
 * POST `key` of the API catalogue for an operator holding the role its entry names (decision 0032),
 * as oauth/member-post.ts is for a member: the token, its limits and the role are checked before the
 * body is read (901 with field keys by the entry's contract); the answer is never cached.
 */
export function operatorPost<K extends OperatorKey>(app: FastifyInstance, deps: OperatorDeps & Pick<TokenDeps, 'clients'>, key: K, handler: (call: OperatorCall<BodyOf<K>>) => Promise<unknown>): void {
  const needed = API[key].role as OperatorRole;
  route(
    app,
    key,
    async (request, reply) => {
      const session = await requireOperator(deps, request, needed);
      reply.header('Cache-Control', 'no-store');
      const input = readBody(key, request.body);
      return handler({ session, input, address: request.ip, requestId: String(request.id), request, reply });
    },
    { body: readInHandler },
  );
}
