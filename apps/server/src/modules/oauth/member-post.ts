import type { FastifyInstance } from 'fastify';
import type { BearerKey } from '@sso/contracts/api-catalogue';
import { readBody, readInHandler, route, type BodyOf } from '../../http/route.ts';
import { describeDevice } from '../../lib/device.ts';
import type { BearerToken, TokenDeps } from './token-service.ts';
import { currentMember } from './current-user.ts';
import type { UserRow } from '../account/user-repo.ts';

/** What a member endpoint's handler gets: the member, the client their token was issued to, the token, the body read, and the device. */
export interface MemberCall<I> {
  user: UserRow;
  clientId: string;
  /** The Bearer token's session (token family), client and scope. */
  token: BearerToken;
  input: I;
  /** The device of the request (lib/device.ts), for the activity log. */
  device: string | null;
  /** The client's network address (request.ip), for a password checked as a login checks it. */
  address: string;
}

/**
 * POST `key` of the API catalogue for the member behind a Bearer token (SPEC.md section 7) holding
 * the scope its entry names (docs/decisions/0010-scopes-and-audience.md). The token and its scope are
 * checked before the body is read, so that a caller without a live one learns nothing but 401, one
 * without the scope nothing but 403; the body is read by the entry's contract (901 with field keys),
 * or by `body` where the route reads it otherwise; the answer, the body's 901 included, is personal:
 * never cached.
 */
export function memberPost<K extends BearerKey>(app: FastifyInstance, deps: TokenDeps, key: K, handler: (call: MemberCall<BodyOf<K>>) => Promise<unknown>): void;
export function memberPost<K extends BearerKey, I>(app: FastifyInstance, deps: TokenDeps, key: K, handler: (call: MemberCall<I>) => Promise<unknown>, body: (raw: unknown) => I): void;
export function memberPost(
  app: FastifyInstance,
  deps: TokenDeps,
  key: BearerKey,
  handler: (call: MemberCall<unknown>) => Promise<unknown>,
  body: (raw: unknown) => unknown = (raw) => readBody(key, raw),
): void {
  route(app, key, async (request, reply) => {
    const { user, clientId, token } = await currentMember(deps, request);
    reply.header('Cache-Control', 'no-store');
    const input = body(request.body);
    return handler({ user, clientId, token, input, device: describeDevice(request.headers['user-agent']), address: request.ip });
  }, { body: readInHandler });
}
