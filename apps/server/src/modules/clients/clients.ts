import { timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { ALL_SCOPES } from '@sso/contracts/scopes';
import { loadConfigFile } from '../../lib/config-file.ts';
import { sha256Bytes } from '../../lib/secrets.ts';

/** One entry of the OAuth client registry (CLIENTS_FILE, SPEC.md section 6). */
const clientSchema = z
  .object({
    client_id: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/),
    name: z.string().min(1),
    type: z.enum(['public', 'confidential']),
    secret_sha256: z.string().regex(/^[0-9a-f]{64}$/).optional(),
    redirect_uris: z.array(z.string().min(1)).min(1),
    custom_scheme: z.string().regex(/^[a-z][a-z0-9+.-]*$/).optional(),
    /** The scopes the client may be granted, and is granted when it asks for none (docs/decisions/0010-scopes-and-audience.md). */
    scopes: z.array(z.enum(ALL_SCOPES as [string, ...string[]])).min(1).default(['openid']),
    /**
     * Confidential clients that, as resource servers, may introspect this client's tokens (the
     * tokens' audience besides this API; decision 0010): Net Answer checks the web and portal apps' tokens.
     */
    audience: z.array(z.string()).default([]),
    terms: z.array(z.string()).default([]),
    service_link: z.boolean().default(false),
    /**
     * Where a direct login hands the member to this client (decision 0006,
     * /api/preauth/direct_login): the one-time token is added as `onetime_token`. A client without
     * one is not handed to by direct login.
     */
    direct_login_uri: z.string().min(1).optional(),
    /** Where a portal app is returned to (/api/redirect/resume_app), with client_id, state and esid. */
    resume_uri: z.string().min(1).optional(),
    /**
     * The sector its subject identifiers are computed for (OpenID Connect Core 1.0 section 8.1;
     * modules/oidc/subject.ts): clients that name the same one know the member by the same `sub`.
     * Unset: the client's own (decision 0025).
     */
    sector_identifier: z.string().regex(/^[A-Za-z0-9_.:-]{1,128}$/).optional(),
    /**
     * Where the client takes back-channel logout tokens (OpenID Connect Back-Channel Logout 1.0
     * section 2.2): an absolute http(s) URI without a fragment, POSTed `logout_token=…` when a session
     * of the member at the client ends here (modules/oidc/backchannel-logout.ts).
     */
    backchannel_logout_uri: z.string().regex(/^(https?:\/\/|\{PUBLIC_ORIGIN\})[^#\s]+$/, { error: 'must be an absolute http(s) URI without a fragment' }).optional(),
    /** Where an RP-initiated logout may send the member back (OpenID Connect RP-Initiated Logout 1.0 section 3.1), matched exactly. */
    post_logout_redirect_uris: z.array(z.string().min(1)).default([]),
  })
  .refine((c) => c.type === 'public' || c.secret_sha256, { error: 'a confidential client needs secret_sha256' });

export type OAuthClient = z.infer<typeof clientSchema>;

export interface ClientRegistry {
  get(clientId: string): OAuthClient | undefined;
  all(): OAuthClient[];
  /** Exact string match (RFC 9700 section 2.1): no prefix, no pattern, no normalisation. */
  isRegisteredRedirect(client: OAuthClient, redirectUri: string): boolean;
  /** The same exact match for where an RP-initiated logout returns (OpenID Connect RP-Initiated Logout 1.0 section 3.1). */
  isRegisteredPostLogoutRedirect(client: OAuthClient, uri: string): boolean;
  /** Checks a confidential client's secret in constant time; public clients have none to check. */
  authenticate(client: OAuthClient, secret: string | undefined): boolean;
}

export function parseClients(json: unknown, publicOrigin: string): ClientRegistry {
  const here = (u: string) => u.replaceAll('{PUBLIC_ORIGIN}', publicOrigin);
  const list = z.array(clientSchema).parse(json).map((c) => ({
    ...c,
    redirect_uris: c.redirect_uris.map(here),
    post_logout_redirect_uris: c.post_logout_redirect_uris.map(here),
    ...(c.direct_login_uri ? { direct_login_uri: here(c.direct_login_uri) } : {}),
    ...(c.resume_uri ? { resume_uri: here(c.resume_uri) } : {}),
    ...(c.backchannel_logout_uri ? { backchannel_logout_uri: here(c.backchannel_logout_uri) } : {}),
  }));
  const byId = new Map(list.map((c) => [c.client_id, c]));
  // Each confidential client's stored digest, decoded once: a secret is then checked with one hash
  // and a constant-time comparison of two 32-byte digests (decision 0008).
  const digests = new Map(list.flatMap((c) => (c.secret_sha256 ? [[c.client_id, Buffer.from(c.secret_sha256, 'hex')] as const] : [])));
  if (byId.size !== list.length) throw new Error('CLIENTS_FILE lists a client_id twice');
  for (const c of list) {
    for (const id of c.audience) {
      if (byId.get(id)?.type !== 'confidential') throw new Error(`CLIENTS_FILE: ${c.client_id}'s audience ${id} is not a confidential client`);
    }
  }
  return {
    get: (id) => byId.get(id),
    all: () => list,
    isRegisteredRedirect: (client, uri) => client.redirect_uris.includes(uri),
    isRegisteredPostLogoutRedirect: (client, uri) => client.post_logout_redirect_uris.includes(uri),
    authenticate: (client, secret) => {
      if (client.type === 'public') return true;
      const digest = digests.get(client.client_id);
      return secret !== undefined && secret !== '' && digest !== undefined && timingSafeEqual(sha256Bytes(secret), digest);
    },
  };
}

export const loadClients = (file: string, publicOrigin: string): ClientRegistry =>
  loadConfigFile({ variable: 'CLIENTS_FILE', file, entry: 'client' }, (raw) => parseClients(raw, publicOrigin));
