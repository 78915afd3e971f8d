import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { API, type ClientKey } from '@sso/contracts/api-catalogue';
import type { ApiRoute } from '@sso/contracts/api-route';
import { readBody, route, type BodyOf } from '../../http/route.ts';
import { withdrawCors } from '../../http/web-origin-cors.ts';
import { OAuthError } from '../../lib/app-error.ts';
import { authenticateClient, type ClientAuthDeps, type ClientCredentialsForm } from './client-auth.ts';
import { isClientEnabled } from '../clients/client-repo.ts';
import type { OAuthClient } from '../clients/clients.ts';

/**
 * POST `key` of the API catalogue for a client that authenticates (RFC 6749 section 2.3.1): the form
 * is read by the entry's contract (RFC 6749 invalid_request), then the client is authenticated from
 * the Authorization header's Basic credentials, the form's, or its JWT assertion (client-auth.ts,
 * with its counters of failures, decision 0038), a confidential one only where the
 * entry says `client: 'confidential'` (RFC 7662 section 2.1). The client's enabled flag is then
 * checked as the database has it (one read by its key; for a confidential client, in the statement
 * that read its failure counters): a node that has not polled the registry since the client was
 * disabled refuses it all the same (decision 0031). At an entry open to web origins
 * (`cors`), a browser's call from another origin than this server's must come from one of the
 * client's own web origins, else invalid_client without CORS headers (decision 0035): one app's page
 * cannot use another's client, nor a page any client that registered no origin.
 * `admit`, when given, runs once the client is known, before its enabled flag is checked and before the
 * handler: an endpoint's limit (par.ts), which may refuse the request having done nothing else.
 * `outcome`, when given, hears of every answer: the form as sent, and the failure (an OAuthError,
 * the form's or the client's included) or nothing when the handler answered.
 * `readsEnabled`, when it says so of a request, leaves the enabled flag to the handler, which reads it
 * in a statement it makes anyway (the refresh grant, with the token's row: token-service.ts) and
 * must refuse a disabled client there as invalid_client before it does anything else.
 */
export function clientPost<K extends ClientKey>(
  app: FastifyInstance,
  deps: ClientAuthDeps,
  key: K,
  handler: (request: FastifyRequest, reply: FastifyReply, body: BodyOf<K>, client: OAuthClient) => Promise<unknown>,
  opts: {
    admit?: (request: FastifyRequest, client: OAuthClient) => Promise<void>;
    outcome?: (raw: unknown, failure?: unknown) => void;
    readsEnabled?: (body: BodyOf<K>, request: FastifyRequest, client: OAuthClient) => boolean;
  } = {},
): void {
  const { admit, outcome, readsEnabled } = opts;
  const entry: ApiRoute = API[key];
  const requireConfidential = entry.client === 'confidential';
  const cors = entry.cors === true;
  const answer = async (request: FastifyRequest, reply: FastifyReply, raw: unknown) => {
    const body = readBody(key, raw);
    // Every client entry's form names the client authentication fields (oauth-endpoints.ts).
    const credentials = body as ClientCredentialsForm;
    const { client, enabled } = await authenticateClient(deps, { authorization: request.headers.authorization, address: request.ip }, credentials, { requireConfidential });
    if (cors && request.crossOrigin !== null && !client.web_origins.includes(request.crossOrigin)) {
      withdrawCors(reply);
      throw new OAuthError('invalid_client', 'the client is not registered for this origin', 401);
    }
    if (admit) await admit(request, client);
    // Read with the failure counters (client-auth.ts) for a confidential client; for a public one
    // here, unless the handler reads it in a statement it makes anyway (`readsEnabled`).
    const refused = enabled === false || (enabled === undefined && !readsEnabled?.(body, request, client) && !(await isClientEnabled(deps.db, client.client_id)));
    if (refused) throw new OAuthError('invalid_client', 'client authentication failed', 401);
    return handler(request, reply, body, client);
  };
  // The form is read here rather than by route(), so that a form the contract refuses is an outcome too.
  route<K, unknown>(
    app,
    key,
    async (request, reply, raw) => {
      if (!outcome) return answer(request, reply, raw);
      try {
        const sent = await answer(request, reply, raw);
        outcome(raw);
        return sent;
      } catch (failure) {
        outcome(raw, failure);
        throw failure;
      }
    },
    { body: (raw) => raw },
  );
}
