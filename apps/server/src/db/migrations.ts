import { Migrator, sql, type Kysely, type Migration } from 'kysely';
import * as initial from './migrations/0001-initial.ts';
import * as signup from './migrations/0002-signup.ts';
import * as mailHtml from './migrations/0003-mail-html.ts';
import * as openSignup from './migrations/0004-open-signup.ts';
import * as emailChange from './migrations/0005-email-change.ts';
import * as cardsDirectLoginPoints from './migrations/0006-cards-direct-login-points.ts';
import * as tokenGrantIndexes from './migrations/0007-token-grant-indexes.ts';
import * as tokenSelectors from './migrations/0008-token-selectors.ts';
import * as tokenScopesAudience from './migrations/0009-token-scopes-audience.ts';
import * as secretBindings from './migrations/0010-secret-bindings.ts';
import * as freshProof from './migrations/0011-fresh-proof.ts';
import * as directLoginProof from './migrations/0012-direct-login-proof.ts';
import * as loginTel from './migrations/0013-login-tel.ts';
import * as passkeys from './migrations/0014-passkeys.ts';
import * as authenticationContext from './migrations/0015-authentication-context.ts';
import * as signingKeys from './migrations/0016-signing-keys.ts';
import * as ssoSessions from './migrations/0017-sso-sessions.ts';
import * as pairwiseSubjects from './migrations/0018-pairwise-subjects.ts';
import * as directLoginAuthTime from './migrations/0019-direct-login-auth-time.ts';
import * as oauthClients from './migrations/0020-oauth-clients.ts';
import * as operators from './migrations/0021-operators.ts';
import * as audit from './migrations/0022-audit.ts';
import * as usedJtis from './migrations/0023-used-jtis.ts';
import * as pushedRequests from './migrations/0024-pushed-authorization-requests.ts';
import * as dpop from './migrations/0025-dpop.ts';
import * as clientSigningAlg from './migrations/0026-client-signing-alg.ts';
import type { Database } from './schema.ts';

/** Forward-only migrations, applied in name order at start. Never edit a shipped one: add the next. */
const MIGRATIONS: Record<string, Migration> = {
  '0001-initial': initial,
  '0002-signup': signup,
  '0003-mail-html': mailHtml,
  '0004-open-signup': openSignup,
  '0005-email-change': emailChange,
  '0006-cards-direct-login-points': cardsDirectLoginPoints,
  '0007-token-grant-indexes': tokenGrantIndexes,
  '0008-token-selectors': tokenSelectors,
  '0009-token-scopes-audience': tokenScopesAudience,
  '0010-secret-bindings': secretBindings,
  '0011-fresh-proof': freshProof,
  '0012-direct-login-proof': directLoginProof,
  '0013-login-tel': loginTel,
  '0014-passkeys': passkeys,
  '0015-authentication-context': authenticationContext,
  '0016-signing-keys': signingKeys,
  '0017-sso-sessions': ssoSessions,
  '0018-pairwise-subjects': pairwiseSubjects,
  '0019-direct-login-auth-time': directLoginAuthTime,
  '0020-oauth-clients': oauthClients,
  '0021-operators': operators,
  '0022-audit': audit,
  '0023-used-jtis': usedJtis,
  '0024-pushed-authorization-requests': pushedRequests,
  '0025-dpop': dpop,
  '0026-client-signing-alg': clientSigningAlg,
};

/**
 * The migrations this code has that the database has not applied (an empty list: the schema is the
 * code's). One read of Kysely's migration table (its default name), for the readiness check
 * (http/health.ts): a node started against a database another node has not finished migrating.
 */
export async function pendingMigrations(db: Kysely<Database>): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`select name from kysely_migration`.execute(db);
  const applied = new Set(rows.map((r) => r.name));
  return Object.keys(MIGRATIONS).filter((name) => !applied.has(name));
}

/** Applies the pending migrations: the names of those it applied, in order (none: the schema was current). */
export async function migrateToLatest(db: Kysely<Database>): Promise<string[]> {
  return migrateUpTo(db, undefined);
}

/** Applies the migrations up to and including `name` (all of them when undefined): tests of an upgrade start from an older schema. */
export async function migrateUpTo(db: Kysely<Database>, name: string | undefined): Promise<string[]> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => MIGRATIONS },
  });
  const { error, results } = name === undefined ? await migrator.migrateToLatest() : await migrator.migrateTo(name);
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`migration failed${failed ? ` at ${failed.migrationName}` : ''}: ${String(error)}`);
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
