import type { FastifyInstance } from 'fastify';
import type { ZodType } from 'zod';
import type { Scope } from '@sso/contracts/scopes';
import { parseOr901 } from '../../http/parse.ts';
import { describeDevice } from '../../lib/device.ts';
import type { BearerToken, TokenDeps } from '../oauth/token-service.ts';
import { currentMember } from './current-user.ts';
import type { UserRow } from './user-repo.ts';

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

/** How a member endpoint reads its body: its contract schema (901 with field keys), or a function of the body. */
type BodyReader<I> = ZodType<I> | ((body: unknown) => I);

/** For an endpoint that reads no body: whatever is sent is ignored. */
export const noBody = (): undefined => undefined;

/**
 * POST `url` for the member behind a Bearer token (SPEC.md section 7) holding `scope` (docs/
 * decisions/0010-scopes-and-audience.md). The token and its scope are checked before the body is
 * read, so that a caller without a live one learns nothing but 401, one without the scope nothing but
 * 403; the answer, the body's 901 included, is personal: never cached.
 */
export function memberPost<I>(
  app: FastifyInstance,
  deps: TokenDeps,
  url: string,
  scope: Scope,
  body: BodyReader<I>,
  handler: (call: MemberCall<I>) => Promise<unknown>,
): void {
  app.post(url, { config: { scope } }, async (request, reply) => {
    const { user, clientId, token } = await currentMember(deps, request);
    reply.header('Cache-Control', 'no-store');
    const input = typeof body === 'function' ? body(request.body) : parseOr901(body, request.body);
    return handler({ user, clientId, token, input, device: describeDevice(request.headers['user-agent']), address: request.ip });
  });
}
