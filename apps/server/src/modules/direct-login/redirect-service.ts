import { directRedirectQuerySchema, resumeAppQuerySchema } from '@sso/contracts/direct-login';
import { sha256 } from '../../lib/secrets.ts';
import type { IssueDeps } from './issue-service.ts';
import { findLiveDirectLogin } from './grants.ts';

/**
 * GET /api/redirect/user_one_time_token (SPEC.md section 7; decision 0006): a target outside the
 * seven of SPEC.md section 2 answers undefined (the caller shows the 400 page, no redirect);
 * otherwise the SPA's /direct/callback with the token, the target, `source` (the client the token
 * came from, when the token is live) and `state` = param. The token is not used here.
 */
export async function directCallbackLocation(deps: Pick<IssueDeps, 'db' | 'clock'>, query: unknown): Promise<string | undefined> {
  const parsed = directRedirectQuerySchema.safeParse(query ?? {});
  if (!parsed.success) return undefined;
  const { one_time_token: token, target, param } = parsed.data;
  const grant = await findLiveDirectLogin(deps.db, sha256(token), deps.clock.now());
  const params = new URLSearchParams({ onetime_token: token, target });
  if (grant?.source_client_id) params.set('source', grant.source_client_id);
  params.set('state', param);
  return `/content/direct/callback?${params.toString()}`;
}

/**
 * GET /api/redirect/resume_app (SPEC.md section 4, "Returning to a portal app is a GET with
 * client_id, state and esid"): only a client registered with a resume_uri (the portals) is sent
 * back, to that URI; anything else answers undefined (the 400 page).
 */
export function resumeAppLocation(deps: Pick<IssueDeps, 'clients'>, query: unknown): string | undefined {
  const parsed = resumeAppQuerySchema.safeParse(query ?? {});
  if (!parsed.success) return undefined;
  const client = deps.clients.get(parsed.data.client_id);
  if (!client?.resume_uri) return undefined;
  const url = new URL(client.resume_uri);
  url.searchParams.set('client_id', client.client_id);
  url.searchParams.set('state', parsed.data.state);
  url.searchParams.set('esid', parsed.data.esid);
  return url.toString();
}
