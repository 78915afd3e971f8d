import type { Kysely } from 'kysely';
import { z } from 'zod';
import { SIGNING_ALG_MESSAGE } from '@sso/contracts/admin-clients';
import type { ValidationError } from '@sso/contracts/common';
import { isTermKey } from '@sso/contracts/terms';
import type { Database } from '../../db/schema.ts';
import { validationError } from '../../lib/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import { newId, randomToken, sha256 } from '../../lib/secrets.ts';
import { useUpClientCodes } from '../oauth/code-repo.ts';
import { revokeClientFamilies } from '../oauth/token-repo.ts';
import { endClientDirectLogins } from '../direct-login/repo.ts';
import { invalidateSubjects } from '../verification/verification-repo.ts';
import {
  bumpRegistryVersion,
  findClientRow,
  insertClient,
  insertClientSecret,
  lockClientRow,
  retireSecretsInOverlap,
  scheduleSecretRetirement,
  setClientEnabledRow,
  updateClientDefinition,
} from '../clients/client-repo.ts';
import type { ClientStore } from '../clients/client-store.ts';
import { authMethodOf, clientDefinitionSchema, registryProblems, resolveDefinition, webOriginsAllowed, type ClientDefinition, type OAuthClient } from '../clients/clients.ts';

/*
 * What an administrator does to the client registry of the database (decision 0031): register a
 * client, change it, disable and enable it, rotate its secret with an overlap. Each change is one
 * transaction that also raises the registry's version and writes what the caller adds (its audit row), then this node reloads at once and the
 * others within CLIENTS_REFRESH_MS. Every refusal is a 901 (SPEC.md section 8) naming the field.
 */

export interface ClientAdminDeps {
  db: Kysely<Database>;
  clock: Clock;
  clients: ClientStore;
  /** What `{PUBLIC_ORIGIN}` in a URI stands for (PUBLIC_ORIGIN). */
  publicOrigin: string;
}

/**
 * What the caller writes in a change's own transaction (the operator API's audit row, decision 0032):
 * when it fails, the change is not made either, and when the change fails, neither is it.
 */
export type AlsoInTransaction<T> = (trx: Kysely<Database>, result: T) => Promise<void>;
const nothingMore = async () => {};

/** How long a rotated secret keeps working beside the new one, unless the caller says otherwise. */
export const SECRET_OVERLAP_MS = 7 * 24 * 60 * 60 * 1000;

export const CLIENT_ADMIN_MESSAGES = {
  invalid: '入力内容をご確認ください。',
  uri: 'URIが正しくありません。https のURI（開発用の localhost は http も可）、またはアプリのカスタムスキームのURIを、フラグメントなしで指定してください。',
  scope: '登録できないスコープが含まれています。',
  term: '登録できない利用規約が含まれています。',
  duplicate: 'このクライアントIDはすでに登録されています。',
  audience: 'audience には登録済みの機密クライアント（confidential）のクライアントIDを指定してください。',
  unknown: 'このクライアントIDのクライアントは登録されていません。',
  notConfidential: 'シークレットを持つのは機密クライアント（confidential）だけです。',
  overlap: '猶予期間は0以上の整数（ミリ秒）で指定してください。',
  webOrigin: 'Webオリジンが正しくありません。https://ホスト名[:ポート]（開発用の localhost は http も可）の形で、パス・末尾のスラッシュ・ワイルドカードなしで指定してください。',
  webOriginsPublicOnly: 'Webオリジンを登録できるのはパブリッククライアント（public）だけです。',
  authMethod: '認証方式が正しくありません。公開クライアント（public）は none、機密クライアント（confidential）は client_secret_basic、client_secret_post または private_key_jwt を指定してください。',
  keys: 'private_key_jwt のクライアントには、公開鍵の jwks（JWK Set）か jwks_uri のどちらか一方だけを指定してください。ほかの認証方式には指定できません。',
  jwksUri: 'jwks_uri は https のURI（開発用の localhost は http も可）をフラグメントなしで指定してください。',
  noSecret: 'private_key_jwt のクライアントはシークレットを持ちません。',
  alg: SIGNING_ALG_MESSAGE,
} as const;

/** A registry problem's words, by the field it names (clients.ts registryProblems). */
const PROBLEM_MESSAGES: Record<string, string> = {
  client_id: CLIENT_ADMIN_MESSAGES.duplicate,
  audience: CLIENT_ADMIN_MESSAGES.audience,
  token_endpoint_auth_method: CLIENT_ADMIN_MESSAGES.authMethod,
  jwks: CLIENT_ADMIN_MESSAGES.keys,
  jwks_uri: CLIENT_ADMIN_MESSAGES.keys,
};

const refuse = (key: string, message: string) => validationError([{ key, message }]);

/** The fields of a zod failure, one error each, in the words above. */
function zodErrors(error: z.ZodError): ValidationError[] {
  // An unknown field is named by the field itself (zod reports it on the object, with its keys).
  const keys = [...new Set(error.issues.flatMap((i) => (i.code === 'unrecognized_keys' ? i.keys : [String(i.path[0] ?? 'client')])))];
  return keys.map((key) => ({
    key,
    message:
      key === 'scopes'
        ? CLIENT_ADMIN_MESSAGES.scope
        : key === 'jwks_uri'
          ? CLIENT_ADMIN_MESSAGES.jwksUri
          : key === 'jwks'
            ? CLIENT_ADMIN_MESSAGES.keys
            : key === 'token_endpoint_auth_method'
              ? CLIENT_ADMIN_MESSAGES.authMethod
              : key === 'web_origins'
                ? CLIENT_ADMIN_MESSAGES.webOrigin
                : /uri/.test(key)
                  ? CLIENT_ADMIN_MESSAGES.uri
                  : key.endsWith('_alg')
                    ? CLIENT_ADMIN_MESSAGES.alg
                    : CLIENT_ADMIN_MESSAGES.invalid,
  }));
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Whether a redirect-like URI may be registered: absolute, without a fragment (RFC 6749 section
 * 3.1.2), https, or http on the loopback host or PUBLIC_ORIGIN itself (RFC 8252 section 8.3), or the
 * client's own private-use scheme (RFC 8252 section 7.1); never javascript:, data: and the like.
 */
function uriAllowed(raw: string, publicOrigin: string, customScheme: string | undefined): boolean {
  const uri = raw.replaceAll('{PUBLIC_ORIGIN}', publicOrigin);
  if (!URL.canParse(uri) || uri.includes('#')) return false;
  const u = new URL(uri);
  if (u.protocol === 'https:') return u.host !== '';
  if (u.protocol === 'http:') return LOOPBACK.has(u.hostname) || u.origin === new URL(publicOrigin).origin;
  return customScheme !== undefined && u.protocol === `${customScheme}:`;
}

/** The definition's own problems beyond its shape: its URIs and its terms. */
function definitionErrors(d: ClientDefinition, publicOrigin: string): ValidationError[] {
  const errors: ValidationError[] = [];
  const uris: [string, string[]][] = [
    ['redirect_uris', d.redirect_uris],
    ['post_logout_redirect_uris', d.post_logout_redirect_uris],
    ['direct_login_uri', d.direct_login_uri ? [d.direct_login_uri] : []],
    ['resume_uri', d.resume_uri ? [d.resume_uri] : []],
  ];
  for (const [key, list] of uris) {
    if (list.some((u) => !uriAllowed(u, publicOrigin, d.custom_scheme))) errors.push({ key, message: CLIENT_ADMIN_MESSAGES.uri });
  }
  // Back-channel logout tokens are POSTed by this server: http(s) only (OpenID Connect Back-Channel Logout 1.0 section 2.2).
  if (d.backchannel_logout_uri && !uriAllowed(d.backchannel_logout_uri, publicOrigin, undefined)) errors.push({ key: 'backchannel_logout_uri', message: CLIENT_ADMIN_MESSAGES.uri });
  if (!d.terms.every(isTermKey)) errors.push({ key: 'terms', message: CLIENT_ADMIN_MESSAGES.term });
  if (!webOriginsAllowed(d)) errors.push({ key: 'web_origins', message: CLIENT_ADMIN_MESSAGES.webOriginsPublicOnly });
  return errors;
}

/** The definition as the registry will hold it, or a 901 naming every field that is wrong. */
function checkedDefinition(input: unknown, deps: ClientAdminDeps, others: readonly ClientDefinition[]): ClientDefinition {
  const parsed = clientDefinitionSchema.strict().safeParse(input);
  if (!parsed.success) throw validationError(zodErrors(parsed.error));
  const errors = definitionErrors(parsed.data, deps.publicOrigin);
  if (errors.length > 0) throw validationError(errors);
  const problem = registryProblems([...others, parsed.data]).find((p) => p.clientId === parsed.data.client_id);
  if (problem) throw refuse(problem.key, PROBLEM_MESSAGES[problem.key] ?? CLIENT_ADMIN_MESSAGES.invalid);
  return parsed.data;
}

/** Every client of the registry but one, as definitions (what a new or changed one is checked against). */
const othersThan = (clients: ClientStore, clientId: string): ClientDefinition[] =>
  clients
    .listAll()
    .map((e) => e.client)
    .filter((c) => c.client_id !== clientId);

/** A client's definition as stored, read in `trx` with its row locked (lockClientRow): what a change decides from. */
async function lockedDefinition(trx: Kysely<Database>, clientId: string): Promise<ClientDefinition> {
  return definitionOf(await lockClientRow(trx, clientId));
}

async function storedDefinition(db: Kysely<Database>, clientId: string): Promise<ClientDefinition> {
  return definitionOf(await findClientRow(db, clientId));
}

function definitionOf(row: { definition: string } | undefined): ClientDefinition {
  if (!row) throw refuse('client_id', CLIENT_ADMIN_MESSAGES.unknown);
  return clientDefinitionSchema.parse(JSON.parse(row.definition));
}

/** Whether the client authenticates with a secret: a confidential client but a private_key_jwt one (decision 0038). */
const hasSecret = (d: ClientDefinition) => d.type === 'confidential' && authMethodOf(d) !== 'private_key_jwt';

/**
 * Registers a client, enabled. A confidential client with a secret is given one, returned here once
 * and stored only as its SHA-256 (decision 0008); a private_key_jwt client has its keys instead.
 */
export async function registerClient(
  deps: ClientAdminDeps,
  input: unknown,
  also: AlsoInTransaction<ClientDefinition> = nothingMore,
): Promise<{ client: OAuthClient; secret?: string }> {
  const id = (input as { client_id?: unknown } | null)?.client_id;
  const definition = checkedDefinition(input, deps, othersThan(deps.clients, typeof id === 'string' ? id : ''));
  const now = deps.clock.now();
  const secret = hasSecret(definition) ? randomToken(32) : undefined;
  await deps.db.transaction().execute(async (trx) => {
    const row = { client_id: definition.client_id, definition: JSON.stringify(definition), enabled: 1, created_at: now, updated_at: now };
    // A client_id taken meanwhile, or by a disabled client: the unique key decides.
    if (!(await insertClient(trx, row))) throw refuse('client_id', CLIENT_ADMIN_MESSAGES.duplicate);
    if (secret !== undefined) await insertClientSecret(trx, { id: newId(), client_id: definition.client_id, secret_sha256: sha256(secret), created_at: now, retire_at: null });
    await bumpRegistryVersion(trx);
    await also(trx, definition);
  });
  await deps.clients.reload();
  return { client: resolveDefinition(definition, deps.publicOrigin), ...(secret !== undefined ? { secret } : {}) };
}

/**
 * What `updateClient` may change; a field left out stays as it is, `backchannel_logout_uri: null`,
 * `userinfo_signed_response_alg: null` (userinfo answers plain JSON again) and
 * `token_endpoint_auth_method: null` (no method named) remove it.
 */
const clientChangesSchema = z
  .object({
    name: clientDefinitionSchema.shape.name,
    redirect_uris: clientDefinitionSchema.shape.redirect_uris,
    post_logout_redirect_uris: z.array(z.string().min(1)),
    backchannel_logout_uri: clientDefinitionSchema.shape.backchannel_logout_uri.unwrap().nullable(),
    scopes: clientDefinitionSchema.shape.scopes.unwrap(),
    terms: z.array(z.string()),
    web_origins: clientDefinitionSchema.shape.web_origins.unwrap(),
    // The method changes within the client's type, checked with its keys as at registration (decision 0038):
    // null removes a key set, to set the other or to leave private_key_jwt; null as the method names none
    // again (a confidential client's secret in the Basic header or the form).
    token_endpoint_auth_method: clientDefinitionSchema.shape.token_endpoint_auth_method.unwrap().nullable(),
    jwks: clientDefinitionSchema.shape.jwks.unwrap().nullable(),
    jwks_uri: clientDefinitionSchema.shape.jwks_uri.unwrap().nullable(),
    // The algorithms a partner's library expects (decision 0034): RS256 or ES256, nothing else.
    id_token_signed_response_alg: clientDefinitionSchema.shape.id_token_signed_response_alg.unwrap(),
    userinfo_signed_response_alg: clientDefinitionSchema.shape.userinfo_signed_response_alg.unwrap().nullable(),
    // A FAPI 2.0 partner's flags (decisions 0036, 0037): in effect at the next request after the reload.
    require_pushed_authorization_requests: clientDefinitionSchema.shape.require_pushed_authorization_requests.unwrap(),
    dpop_bound_access_tokens: clientDefinitionSchema.shape.dpop_bound_access_tokens.unwrap(),
  })
  .partial()
  .strict();
export type ClientChanges = z.infer<typeof clientChangesSchema>;

/** The optional fields `null` removes (clientChangesSchema): left out, one stays; null, it goes; given, it is replaced. */
const REMOVABLE = ['backchannel_logout_uri', 'userinfo_signed_response_alg', 'jwks', 'jwks_uri', 'token_endpoint_auth_method'] as const;

/** The settings whose old and new values an update's audit names (decision 0040): how the client authenticates and its FAPI flags. */
const AUDITED_VALUES = ['token_endpoint_auth_method', 'require_pushed_authorization_requests', 'dpop_bound_access_tokens'] as const;
type AuditedValue = (typeof AUDITED_VALUES)[number];

/**
 * The fields an update may change whose value it did change, stored against new, in the schema's
 * order: the console sends every field on every edit, and the audit must still say which one moved.
 */
function changedFields(stored: ClientDefinition, definition: ClientDefinition): { fields: string[]; values: Partial<Record<AuditedValue, { from: unknown; to: unknown }>> } {
  const value = (d: ClientDefinition, key: string) => JSON.stringify((d as Record<string, unknown>)[key] ?? null);
  const fields = Object.keys(clientChangesSchema.shape).filter((key) => value(stored, key) !== value(definition, key));
  const values = Object.fromEntries(AUDITED_VALUES.filter((key) => fields.includes(key)).map((key) => [key, { from: stored[key] ?? null, to: definition[key] ?? null }]));
  return { fields, values };
}

/** What an update did: the fields it changed (with the audited old and new values), a secret given (answered once), secrets ended. */
export interface ClientUpdated {
  definition: ClientDefinition;
  changed: ReturnType<typeof changedFields>;
  secretIssued: boolean;
  secretsRetired: number;
}

/**
 * Changes a client's name, redirect, post-logout and back-channel URIs, scopes, terms, web origins,
 * signing algorithms, authentication method and keys, and its pushed-requests-only and DPoP-bound
 * flags. A change of method follows the secrets (decision 0038): to private_key_jwt, every secret the
 * client has ends now, in the change's transaction (one method per client: none comes back with a
 * later change); from it to a secret method, a new secret is made, returned here once, and any stray
 * secret ends with it. The stored definition is read in the change's transaction with its row locked
 * (lockClientRow), so that concurrent changes and rotations decide one after the other (decision 0040).
 */
export async function updateClient(
  deps: ClientAdminDeps,
  clientId: string,
  changes: unknown,
  also: AlsoInTransaction<ClientUpdated> = nothingMore,
): Promise<{ client: OAuthClient; secret?: string }> {
  const parsed = clientChangesSchema.safeParse(changes);
  if (!parsed.success) throw validationError(zodErrors(parsed.error));
  const now = deps.clock.now();
  const { definition, secret } = await deps.db.transaction().execute(async (trx) => {
    // Read with the row locked: a concurrent change or rotation waits, then decides from this one's result.
    const stored = await lockedDefinition(trx, clientId);
    const merged: Record<string, unknown> = { ...stored, ...parsed.data };
    for (const key of REMOVABLE) if (merged[key] === null) delete merged[key];
    const definition = checkedDefinition(merged, deps, othersThan(deps.clients, clientId));
    const secret = hasSecret(definition) && !hasSecret(stored) ? randomToken(32) : undefined;
    if (!(await updateClientDefinition(trx, { clientId, definition: JSON.stringify(definition), now }))) throw refuse('client_id', CLIENT_ADMIN_MESSAGES.unknown);
    // Without a secret method no secret may work, whatever the stored copy said; a new secret is the only one.
    const secretsRetired = !hasSecret(definition) || secret !== undefined ? await scheduleSecretRetirement(trx, { clientId, retireAt: now }) : 0;
    if (secret !== undefined) await insertClientSecret(trx, { id: newId(), client_id: clientId, secret_sha256: sha256(secret), created_at: now, retire_at: null });
    await bumpRegistryVersion(trx);
    await also(trx, { definition, changed: changedFields(stored, definition), secretIssued: secret !== undefined, secretsRetired });
    return { definition, secret };
  });
  await deps.clients.reload();
  return { client: resolveDefinition(definition, deps.publicOrigin), ...(secret !== undefined ? { secret } : {}) };
}

/** What disabling a client ended (the audit's detail). */
export interface ClientEnded {
  sessions: number;
  codes: number;
  directLogins: number;
}

/**
 * Enables or disables a client. A disabled client is unknown to every flow (the authorize page's
 * 400, invalid_client at the token, revocation and introspection endpoints), and disabling ends at
 * once, in the same transaction, every session of the client (its access tokens answer inactive at
 * introspection and its refresh tokens invalid_grant, SPEC.md section 7, also after it is enabled
 * again), its codes not yet exchanged and the direct logins in flight to or from it. `changed`:
 * false when it already was so.
 */
export async function setClientEnabled(
  deps: ClientAdminDeps,
  clientId: string,
  enabled: boolean,
  also: AlsoInTransaction<{ changed: boolean; ended: ClientEnded }> = nothingMore,
): Promise<{ changed: boolean; ended: ClientEnded }> {
  const now = deps.clock.now();
  const result = await deps.db.transaction().execute(async (trx) => {
    const ended: ClientEnded = { sessions: 0, codes: 0, directLogins: 0 };
    if (!(await setClientEnabledRow(trx, { clientId, enabled, now }))) {
      if (!(await findClientRow(trx, clientId))) throw refuse('client_id', CLIENT_ADMIN_MESSAGES.unknown);
      await also(trx, { changed: false, ended });
      return { changed: false, ended };
    }
    if (!enabled) {
      ended.sessions = await revokeClientFamilies(trx, clientId, now);
      ended.codes = await useUpClientCodes(trx, clientId, now);
      const directLogins = await endClientDirectLogins(trx, clientId, now);
      await invalidateSubjects(trx, directLogins, now);
      ended.directLogins = directLogins.length;
    }
    await bumpRegistryVersion(trx);
    await also(trx, { changed: true, ended });
    return { changed: true, ended };
  });
  await deps.clients.reload();
  return result;
}

/**
 * Gives a confidential client a new secret, returned here once (stored as its SHA-256). The secrets
 * it had keep working for `overlapMs` more (default 7 days), or until `retireOldSecrets`, so that
 * the partner can deploy the new one without a cut-over; the earliest retirement already set stays.
 */
export async function rotateClientSecret(
  deps: ClientAdminDeps,
  clientId: string,
  opts: { overlapMs?: number } = {},
  also: AlsoInTransaction<{ oldRetireAt: number }> = nothingMore,
): Promise<{ secret: string; oldRetireAt: number }> {
  const overlapMs = opts.overlapMs ?? SECRET_OVERLAP_MS;
  if (!Number.isSafeInteger(overlapMs) || overlapMs < 0) throw refuse('overlap_ms', CLIENT_ADMIN_MESSAGES.overlap);
  const now = deps.clock.now();
  const secret = randomToken(32);
  await deps.db.transaction().execute(async (trx) => {
    // Read with the row locked: a switch to private_key_jwt either waits for this rotation (and retires its secret) or is seen here.
    const stored = await lockedDefinition(trx, clientId);
    if (stored.type !== 'confidential') throw refuse('client_id', CLIENT_ADMIN_MESSAGES.notConfidential);
    if (!hasSecret(stored)) throw refuse('client_id', CLIENT_ADMIN_MESSAGES.noSecret);
    await scheduleSecretRetirement(trx, { clientId, retireAt: now + overlapMs });
    await insertClientSecret(trx, { id: newId(), client_id: clientId, secret_sha256: sha256(secret), created_at: now, retire_at: null });
    await bumpRegistryVersion(trx);
    await also(trx, { oldRetireAt: now + overlapMs });
  });
  await deps.clients.reload();
  return { secret, oldRetireAt: now + overlapMs };
}

/** Ends the overlap now: only the client's newest secret works from here on; how many secrets were retired. */
export async function retireOldSecrets(deps: ClientAdminDeps, clientId: string, also: AlsoInTransaction<number> = nothingMore): Promise<number> {
  await storedDefinition(deps.db, clientId);
  const retired = await deps.db.transaction().execute(async (trx) => {
    const n = await retireSecretsInOverlap(trx, { clientId, now: deps.clock.now() });
    if (n > 0) await bumpRegistryVersion(trx);
    await also(trx, n);
    return n;
  });
  await deps.clients.reload();
  return retired;
}
