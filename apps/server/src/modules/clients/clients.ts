import { timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { SIGNING_ALGS } from '@sso/contracts/constants';
import { ALL_SCOPES } from '@sso/contracts/scopes';
import { loadConfigFile } from '../../lib/config-file.ts';
import { sha256Bytes } from '../../lib/secrets.ts';

/** How a client authenticates at the token, revocation and introspection endpoints (RFC 7591 section 2; decision 0038). */
export const CLIENT_AUTH_METHODS = ['client_secret_basic', 'client_secret_post', 'private_key_jwt', 'none'] as const;
export type ClientAuthMethod = (typeof CLIENT_AUTH_METHODS)[number];

/** A JWK's private members (RFC 7518 section 6): a registered key set carries public keys only. */
const PRIVATE_JWK_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth', 'k'];

/** A client's public signing keys (RFC 7517 section 5): RSA or EC keys, none of them private or symmetric. */
export const publicJwksSchema = z.object({
  keys: z
    .array(
      z
        .looseObject({ kty: z.enum(['RSA', 'EC']), kid: z.string().max(256).optional() })
        .refine((k) => PRIVATE_JWK_MEMBERS.every((m) => !(m in k)), { error: 'must be a public key' }),
    )
    .min(1)
    .max(16),
});

/** Schemes a browser handles itself: no app's custom scheme (RFC 8252 section 7.1). */
const BROWSER_SCHEMES = ['javascript', 'data', 'vbscript', 'blob', 'file', 'filesystem', 'about', 'http', 'https', 'ws', 'wss', 'ftp', 'mailto', 'tel'];

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);
export const WEB_ORIGIN_RULE = 'must be an origin as a browser sends it: https://host[:port] (http on a loopback host), lower case, no path, no trailing slash, no wildcard';

/**
 * Whether `s` is an origin exactly as a browser serialises it in the Origin header (Fetch standard,
 * "serializing a request origin"; RFC 6454 section 6.2): scheme, host and a port other than the
 * default, nothing else. Matched by string equality, so anything a browser would never send (a
 * trailing slash, upper case, a default port, a path, a wildcard) could never match and is refused.
 * http only on a loopback host (RFC 8252 section 8.3), as for redirect URIs.
 */
export function isWebOrigin(s: string): boolean {
  if (!/^https?:\/\/(\[[0-9a-f:.]+\]|[a-z0-9-]+(\.[a-z0-9-]+)*)(:[0-9]{1,5})?$/.test(s) || !URL.canParse(s)) return false;
  const u = new URL(s);
  return u.origin === s && (u.protocol === 'https:' || LOOPBACK_HOSTS.has(u.hostname));
}

/**
 * Whether the client may have its web origins: a public client's only (decision 0035). A page keeps
 * no secret, and a confidential client's secret has no business in a browser.
 */
export const webOriginsAllowed = (c: { type: string; web_origins?: readonly string[] | undefined }): boolean => c.type === 'public' || (c.web_origins ?? []).length === 0;

/**
 * A client of the OAuth client registry (SPEC.md section 6) as CLIENTS_FILE writes it and the
 * database keeps it (`oauth_clients.definition`, decision 0031), without its secret.
 */
export const clientDefinitionSchema = z.object({
  client_id: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/),
  name: z.string().min(1),
  type: z.enum(['public', 'confidential']),
  redirect_uris: z.array(z.string().min(1)).min(1),
  /**
   * An app's own URI scheme for its redirect URIs (RFC 8252 section 7.1): never one a browser runs or
   * reads itself (a `javascript:` redirect would run in the SPA's page), nor the web's own.
   */
  custom_scheme: z
    .string()
    .regex(/^[a-z][a-z0-9+.-]*$/)
    .refine((scheme) => !BROWSER_SCHEMES.includes(scheme), { error: 'must be an app\'s own scheme, not one a browser handles' })
    .optional(),
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
  /**
   * The origins of a browser app's pages that call the token, userinfo and revocation endpoints
   * themselves (CORS, Fetch standard; decision 0035): each exactly as a browser sends it in Origin.
   * A public client's only.
   */
  web_origins: z.array(z.string().refine(isWebOrigin, { error: WEB_ORIGIN_RULE })).default([]),
  /**
   * How the client authenticates (RFC 7591 section 2), one method per client. Unset: as before
   * decision 0038, a secret (Basic or in the form) for a confidential client, none for a public one.
   */
  token_endpoint_auth_method: z.enum(CLIENT_AUTH_METHODS).optional(),
  /** private_key_jwt: the client's public keys, inline (RFC 7591 section 2)… */
  jwks: publicJwksSchema.optional(),
  /** …or where they are published: https, or http on the loopback host (dev and test only; oauth/client-keys.ts). */
  jwks_uri: z.string().regex(/^(https:\/\/[^\s#]+|http:\/\/(localhost|127\.0\.0\.1|\[::1\])(:\d+)?(\/[^\s#]*)?)$/, { error: 'must be an https URI' }).optional(),
  /**
   * Every token request of the client must carry a DPoP proof, so that all its access tokens are
   * DPoP-bound (RFC 9449 section 5.2; docs/decisions/0037-dpop.md): a FAPI 2.0 partner opts in so.
   */
  dpop_bound_access_tokens: z.boolean().default(false),
  /**
   * Its authorization requests come only pushed (RFC 9126 section 5; FAPI 2.0 Security Profile): one
   * without a request_uri from POST /api/auth/par is refused at the authorize endpoints (decision 0036).
   */
  require_pushed_authorization_requests: z.boolean().default(false),
  /**
   * The algorithm of its ID tokens and logout tokens (Dynamic Client Registration 1.0 section 2:
   * RS256 unless the client says otherwise; decision 0034). The member's own apps name ES256: an ID
   * token at every refresh, and ES256 signs in a fraction of RS256's time (docs/performance.md).
   */
  id_token_signed_response_alg: z.enum(SIGNING_ALGS).default('RS256'),
  /** Set: userinfo answers `application/jwt` signed with it (Core 1.0 section 5.3.2); unset: plain JSON. */
  userinfo_signed_response_alg: z.enum(SIGNING_ALGS).optional(),
});

/** One entry of CLIENTS_FILE: the definition and, for a confidential client, its secret's SHA-256 (decision 0008). */
const clientFileSchema = clientDefinitionSchema
  .extend({ secret_sha256: z.string().regex(/^[0-9a-f]{64}$/).optional() })
  .refine((c) => c.type === 'public' || c.token_endpoint_auth_method === 'private_key_jwt' || c.secret_sha256, { error: 'a confidential client needs secret_sha256' })
  .refine((c) => c.token_endpoint_auth_method !== 'private_key_jwt' || !c.secret_sha256, { error: 'a private_key_jwt client has no secret' })
  .refine(webOriginsAllowed, { error: 'web_origins are a public client\'s only', path: ['web_origins'] });

export type ClientDefinition = z.infer<typeof clientDefinitionSchema>;
/** A client as the flows see it: its definition with `{PUBLIC_ORIGIN}` replaced. */
export type OAuthClient = z.infer<typeof clientFileSchema>;

/**
 * A client of the registry before `{PUBLIC_ORIGIN}` is replaced: its definition, whether it is
 * enabled, and its secrets (SHA-256, hex) with the time each is refused from (null: not yet dated).
 */
export interface ClientEntry {
  definition: ClientDefinition;
  enabled: boolean;
  secrets: { sha256: string; retireAt: number | null }[];
}

export interface ClientRegistry {
  /** An enabled client; a disabled one is unknown here, to every flow (decision 0031). */
  get(clientId: string): OAuthClient | undefined;
  /** The enabled clients. */
  all(): OAuthClient[];
  /** Every client, enabled or not, with its flag: what an administrator's listing shows. */
  listAll(): { client: OAuthClient; enabled: boolean }[];
  /**
   * Every enabled client's redirect and post-logout redirect URIs: the same array until the
   * registry changes, so that a caller may keep what it derives from it (http/security-headers.ts).
   */
  redirectUris(): readonly string[];
  /** Every enabled public client's web origins (decision 0035): the same set until the registry changes. */
  webOrigins(): ReadonlySet<string>;
  /** Exact string match (RFC 9700 section 2.1): no prefix, no pattern, no normalisation. */
  isRegisteredRedirect(client: OAuthClient, redirectUri: string): boolean;
  /** The same exact match for where an RP-initiated logout returns (OpenID Connect RP-Initiated Logout 1.0 section 3.1). */
  isRegisteredPostLogoutRedirect(client: OAuthClient, uri: string): boolean;
  /**
   * Checks a confidential client's secret in constant time against each of its secrets not yet
   * retired (a rotation's overlap, decision 0031); public clients have none to check.
   */
  authenticate(client: OAuthClient, secret: string | undefined): boolean;
}

/** The method a client authenticates with: its own, or what its type implies (decision 0038). */
export function authMethodOf(client: Pick<ClientDefinition, 'type' | 'token_endpoint_auth_method'>): ClientAuthMethod | 'client_secret' {
  return client.token_endpoint_auth_method ?? (client.type === 'public' ? 'none' : 'client_secret');
}

/**
 * What is wrong with one client's authentication method (RFC 7591 section 2, decision 0038): none
 * for a public client only, a key set (inline or by URI, exactly one) for private_key_jwt only.
 */
export function authMethodProblems(c: ClientDefinition): { key: string; message: string }[] {
  const method = authMethodOf(c);
  const problems: { key: string; message: string }[] = [];
  if ((method === 'none') !== (c.type === 'public')) problems.push({ key: 'token_endpoint_auth_method', message: `${c.client_id}: none is the method of a public client, and only of one` });
  const keySets = (c.jwks ? 1 : 0) + (c.jwks_uri ? 1 : 0);
  if (method === 'private_key_jwt' && keySets !== 1) problems.push({ key: c.jwks ? 'jwks' : 'jwks_uri', message: `${c.client_id}: private_key_jwt needs either jwks or jwks_uri` });
  if (method !== 'private_key_jwt' && keySets > 0) problems.push({ key: c.jwks ? 'jwks' : 'jwks_uri', message: `${c.client_id}: only a private_key_jwt client has keys` });
  return problems;
}

/** What is wrong with a set of clients as a whole, by field: a client_id twice, an audience that is not a confidential client. */
export function registryProblems(definitions: readonly ClientDefinition[]): { key: string; clientId: string; message: string }[] {
  const problems: { key: string; clientId: string; message: string }[] = [];
  const byId = new Map<string, ClientDefinition>();
  for (const c of definitions) {
    if (byId.has(c.client_id)) problems.push({ key: 'client_id', clientId: c.client_id, message: `lists the client_id ${c.client_id} twice` });
    byId.set(c.client_id, c);
  }
  for (const c of definitions) {
    for (const p of authMethodProblems(c)) problems.push({ ...p, clientId: c.client_id });
    for (const id of c.audience) {
      if (byId.get(id)?.type !== 'confidential') problems.push({ key: 'audience', clientId: c.client_id, message: `${c.client_id}'s audience ${id} is not a confidential client` });
    }
  }
  return problems;
}

/** The client as the flows see it: `{PUBLIC_ORIGIN}` replaced in its URIs. */
export function resolveDefinition(c: ClientDefinition, publicOrigin: string): OAuthClient {
  const here = (u: string) => u.replaceAll('{PUBLIC_ORIGIN}', publicOrigin);
  return {
    ...c,
    redirect_uris: c.redirect_uris.map(here),
    post_logout_redirect_uris: c.post_logout_redirect_uris.map(here),
    ...(c.direct_login_uri ? { direct_login_uri: here(c.direct_login_uri) } : {}),
    ...(c.resume_uri ? { resume_uri: here(c.resume_uri) } : {}),
    ...(c.backchannel_logout_uri ? { backchannel_logout_uri: here(c.backchannel_logout_uri) } : {}),
  };
}

/**
 * A registry over a snapshot of clients; `now` dates the secrets' retirement. Throws on a client_id
 * listed twice or an audience naming no confidential client.
 */
export function registryOf(entries: readonly ClientEntry[], publicOrigin: string, now: () => number = Date.now): ClientRegistry {
  const problem = registryProblems(entries.map((e) => e.definition))[0];
  if (problem) throw new Error(problem.message);
  const everyClient = entries.map((e) => ({ client: resolveDefinition(e.definition, publicOrigin), enabled: e.enabled }));
  const list = everyClient.filter((e) => e.enabled).map((e) => e.client);
  const byId = new Map(list.map((c) => [c.client_id, c]));
  // Each enabled client's stored digests, decoded once: a secret is then checked with one hash and a
  // constant-time comparison of 32-byte digests (decision 0008).
  const digests = new Map(
    entries.filter((e) => e.enabled).map((e) => [e.definition.client_id, e.secrets.map((s) => ({ digest: Buffer.from(s.sha256, 'hex'), retireAt: s.retireAt }))] as const),
  );
  const redirectUris = Object.freeze(list.flatMap((c) => [...c.redirect_uris, ...c.post_logout_redirect_uris]));
  const webOrigins: ReadonlySet<string> = new Set(list.filter((c) => c.type === 'public').flatMap((c) => c.web_origins));
  return {
    get: (id) => byId.get(id),
    all: () => list,
    listAll: () => everyClient,
    redirectUris: () => redirectUris,
    webOrigins: () => webOrigins,
    isRegisteredRedirect: (client, uri) => client.redirect_uris.includes(uri),
    isRegisteredPostLogoutRedirect: (client, uri) => client.post_logout_redirect_uris.includes(uri),
    authenticate: (client, secret) => {
      if (client.type === 'public') return true;
      // One method per client (RFC 7591 section 2): a private_key_jwt client has no secret to check.
      if (client.token_endpoint_auth_method === 'private_key_jwt') return false;
      if (secret === undefined || secret === '') return false;
      const at = now();
      const given = sha256Bytes(secret);
      // Every live secret is compared, the match or not, so that the time tells nothing of which.
      let match = false;
      for (const s of digests.get(client.client_id) ?? []) {
        const equal = timingSafeEqual(given, s.digest);
        match = (equal && (s.retireAt === null || s.retireAt > at)) || match;
      }
      return match;
    },
  };
}

/** CLIENTS_FILE's entries, validated (each entry's fields; the set as a whole by `registryOf`). */
export function parseClientsFile(json: unknown): ClientEntry[] {
  return z
    .array(clientFileSchema)
    .parse(json)
    .map(({ secret_sha256, ...definition }) => ({ definition, enabled: true, secrets: secret_sha256 ? [{ sha256: secret_sha256, retireAt: null }] : [] }));
}

export function parseClients(json: unknown, publicOrigin: string): ClientRegistry {
  try {
    return registryOf(parseClientsFile(json), publicOrigin);
  } catch (e) {
    if (e instanceof z.ZodError) throw e;
    throw new Error(`CLIENTS_FILE ${(e as Error).message}`);
  }
}

export const loadClients = (file: string, publicOrigin: string): ClientRegistry =>
  loadConfigFile({ variable: 'CLIENTS_FILE', file, entry: 'client' }, (raw) => parseClients(raw, publicOrigin));

/** CLIENTS_FILE's entries, read and validated as a whole, as `loadClients` does (the first start's import, decision 0031). */
export const loadClientsFile = (file: string, publicOrigin: string): ClientEntry[] =>
  loadConfigFile({ variable: 'CLIENTS_FILE', file, entry: 'client' }, (raw) => {
    const entries = parseClientsFile(raw);
    parseClients(raw, publicOrigin);
    return entries;
  });
