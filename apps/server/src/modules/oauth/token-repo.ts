import { sql, type ExpressionBuilder, type Kysely, type Selectable } from 'kysely';
import type { Database, TokenFamiliesTable, TokenGrantsTable } from '../../db/schema.ts';
import { isPostgres } from '../../db/dialect.ts';
import { preparedQuery } from '../../db/prepared-query.ts';

export type FamilyRow = Selectable<TokenFamiliesTable>;
export type GrantRow = Selectable<TokenGrantsTable>;
/** A grant's primary key (migration 0008): its family first, so that a family's grants are together. */
export type GrantKey = Pick<GrantRow, 'family_id' | 'id'>;

// Compiled once (prepared-query.ts): every code exchange starts a family. Every column listed (`satisfies`): a column added later fails to compile, not left out.
const familyInsert = preparedQuery((db, p: FamilyRow) =>
  db.insertInto('token_families').values({
    id: p.id,
    user_id: p.user_id,
    client_id: p.client_id,
    terminal_id: p.terminal_id,
    scope: p.scope,
    audience: p.audience,
    created_at: p.created_at,
    revoked_at: p.revoked_at,
    proved_at: p.proved_at,
    auth_time: p.auth_time,
    amr: p.amr,
    sso_session_id: p.sso_session_id,
    subject: p.subject,
  } satisfies Record<keyof FamilyRow, unknown>),
);

export async function insertFamily(db: Kysely<Database>, row: FamilyRow): Promise<void> {
  await familyInsert(db, row);
}

// The writes of every refresh, compiled once (decision 0008), as the lookups below. Every column listed (`satisfies`): a column added later fails to compile, not left out.
const grantInsert = preparedQuery((db, p: GrantRow) =>
  db.insertInto('token_grants').values({
    id: p.id,
    family_id: p.family_id,
    parent_id: p.parent_id,
    access_hash: p.access_hash,
    refresh_hash: p.refresh_hash,
    access_expires_at: p.access_expires_at,
    refresh_expires_at: p.refresh_expires_at,
    created_at: p.created_at,
    rotated_at: p.rotated_at,
    revoked_at: p.revoked_at,
    hash_lookup: p.hash_lookup,
    dpop_jkt: p.dpop_jkt,
  } satisfies Record<keyof GrantRow, unknown>),
);
const rotation = preparedQuery((db, p: GrantKey & { now: number }) =>
  db
    .updateTable('token_grants')
    .set({ rotated_at: p.now })
    .where('family_id', '=', p.family_id)
    .where('id', '=', p.id)
    .where('rotated_at', 'is', null)
    .where('revoked_at', 'is', null),
);

export async function insertGrant(db: Kysely<Database>, row: GrantRow): Promise<void> {
  await grantInsert(db, row);
}

/**
 * When the member authenticated for a session (ms), or null when that is unknown. A session from
 * before migration 0015 (it has no subject either: migration 0018) authenticated when it began; a
 * later one without `auth_time` came from a direct login whose asking session did not know it
 * (migration 0019): its ID tokens leave the claim out rather than make up the redemption's time.
 */
const authTimeOf = (eb: ExpressionBuilder<{ f: TokenFamiliesTable }, 'f'>) =>
  eb.fn.coalesce('f.auth_time', eb.case().when('f.subject', 'is', null).then(eb.ref('f.created_at')).end());

const grantWithFamily = (db: Kysely<Database>) =>
  db
    .selectFrom('token_grants as g')
    .innerJoin('token_families as f', 'f.id', 'g.family_id')
    .select([
      'g.id',
      'g.family_id',
      'g.parent_id',
      'g.access_hash',
      'g.refresh_hash',
      'g.access_expires_at',
      'g.refresh_expires_at',
      'g.created_at',
      'g.rotated_at',
      'g.revoked_at',
      'g.dpop_jkt',
      'f.user_id',
      'f.client_id',
      'f.terminal_id',
      'f.scope',
      'f.audience',
      'f.proved_at',
      'f.revoked_at as family_revoked_at',
      'f.amr',
      'f.sso_session_id',
      'f.subject',
    ])
    // The ID token of a refresh is made from this row (modules/oidc/id-token.ts).
    .select((eb) => authTimeOf(eb).as('auth_time'));

// The lookups of every refresh, introspection and Bearer request, compiled once (decision 0008). A
// token names its grant (tokens.ts), so it is found by the primary key. A pair issued before that
// is found by a hash through the partial indexes of migration 0008, whose condition is written as a
// literal so that the planner can match it.
const byKey = preparedQuery((db, p: GrantKey) => grantWithFamily(db).where('g.family_id', '=', p.family_id).where('g.id', '=', p.id));
const legacyByAccessHash = preparedQuery((db, p: { hash: string }) =>
  grantWithFamily(db).where('g.access_hash', '=', p.hash).where('g.hash_lookup', '=', sql.lit(1)),
);
const legacyByRefreshHash = preparedQuery((db, p: { hash: string }) =>
  grantWithFamily(db).where('g.refresh_hash', '=', p.hash).where('g.hash_lookup', '=', sql.lit(1)),
);

// The same lookup for a client's token request, with that client's enabled flag (decision 0031) read
// by its primary key in the same statement: a refresh grant's one read before its rotation.
const byKeyWithClient = preparedQuery((db, p: GrantKey & { clientId: string }) =>
  grantWithFamily(db)
    .leftJoin('oauth_clients as c', (join) => join.on('c.client_id', '=', p.clientId))
    .select('c.enabled as client_enabled')
    .where('g.family_id', '=', p.family_id)
    .where('g.id', '=', p.id),
);

export type GrantWithFamily = NonNullable<Awaited<ReturnType<typeof findGrant>>>;

export const findGrant = async (db: Kysely<Database>, key: GrantKey) => (await byKey(db, key)).rows[0];

/**
 * findGrant, and whether `clientId` is registered and enabled in the database now (isClientEnabled of
 * client-repo.ts), in one statement; undefined when there is no such grant (and then no flag either).
 */
export async function findGrantAndClient(db: Kysely<Database>, key: GrantKey, clientId: string): Promise<{ grant: GrantWithFamily; clientEnabled: boolean } | undefined> {
  const row = (await byKeyWithClient(db, { ...key, clientId })).rows[0];
  if (!row) return undefined;
  const { client_enabled: enabled, ...grant } = row;
  return { grant, clientEnabled: Number(enabled ?? 0) === 1 };
}

/** A pair issued before migration 0008, by the hash of either of its tokens. */
export const findLegacyGrant = async (db: Kysely<Database>, hash: string): Promise<GrantWithFamily | undefined> =>
  (await legacyByAccessHash(db, { hash })).rows[0] ?? (await legacyByRefreshHash(db, { hash })).rows[0];

/** Marks a refresh token used, only if it is still live: the database decides which concurrent refresh wins. */
export async function markRotated(db: Kysely<Database>, grant: GrantKey, now: number): Promise<boolean> {
  return Number((await rotation(db, { family_id: grant.family_id, id: grant.id, now })).numAffectedRows) === 1;
}

/**
 * PostgreSQL: the rotation and the child's insert as one statement, a data-modifying `WITH` whose
 * insert takes its row from the rotated one, so that nothing is written unless the parent was live.
 * A statement is its own transaction: one round trip where `begin`, the two statements and `commit`
 * took four. A concurrent rotation of the same grant waits for the row and then finds it rotated.
 */
const rotationWithChild = preparedQuery((db, p: GrantRow & { now: number; parent: string }) =>
  db
    .with('rotated', (db) =>
      db
        .updateTable('token_grants')
        .set({ rotated_at: p.now })
        .where('family_id', '=', p.family_id)
        .where('id', '=', p.parent)
        .where('rotated_at', 'is', null)
        .where('revoked_at', 'is', null)
        .returning(['family_id', 'id']),
    )
    .insertInto('token_grants')
    .columns(['id', 'family_id', 'parent_id', 'access_hash', 'refresh_hash', 'access_expires_at', 'refresh_expires_at', 'created_at', 'rotated_at', 'revoked_at', 'hash_lookup', 'dpop_jkt'])
    .expression((eb) =>
      eb
        .selectFrom('rotated')
        .select((eb) => [
          eb.cast<string>(eb.val(p.id), 'text').as('id'),
          'rotated.family_id',
          'rotated.id as parent_id',
          eb.cast<string>(eb.val(p.access_hash), 'text').as('access_hash'),
          eb.cast<string>(eb.val(p.refresh_hash), 'text').as('refresh_hash'),
          eb.cast<number>(eb.val(p.access_expires_at), 'bigint').as('access_expires_at'),
          eb.cast<number>(eb.val(p.refresh_expires_at), 'bigint').as('refresh_expires_at'),
          eb.cast<number>(eb.val(p.created_at), 'bigint').as('created_at'),
          eb.lit(null).as('rotated_at'),
          eb.lit(null).as('revoked_at'),
          eb.lit(0).as('hash_lookup'),
          eb.cast<string | null>(eb.val(p.dpop_jkt), 'text').as('dpop_jkt'),
        ]),
    ),
);

/**
 * Rotates a live grant and writes its child, or neither (the grant was rotated or revoked
 * meanwhile): whether it did. The child is the parent's successor in its family. PostgreSQL runs
 * one statement (above); SQLite the two in a transaction, calls within the process.
 */
export async function rotateGrant(db: Kysely<Database>, parent: GrantKey, child: GrantRow, now: number): Promise<boolean> {
  if (isPostgres(db)) return Number((await rotationWithChild(db, { ...child, parent: parent.id, now })).numAffectedRows) === 1;
  return db.transaction().execute(async (trx) => {
    if (!(await markRotated(trx, parent, now))) return false;
    await insertGrant(trx, child);
    return true;
  });
}

/** Takes a row lock on a grant (PostgreSQL) so that retries of one refresh are serialised. */
export async function lockGrant(db: Kysely<Database>, grant: GrantKey): Promise<void> {
  await db
    .updateTable('token_grants')
    .set((eb) => ({ rotated_at: eb.ref('rotated_at') }))
    .where('family_id', '=', grant.family_id)
    .where('id', '=', grant.id)
    .execute();
}

/**
 * Revokes the still-unused children of a grant; returns how many were live. A grant's children are
 * in its family, found by the primary key's first column (a rare path: a retry within the grace).
 */
export async function supersedeChildren(db: Kysely<Database>, parent: GrantKey, now: number): Promise<number> {
  const r = await db
    .updateTable('token_grants')
    .set({ revoked_at: now })
    .where('family_id', '=', parent.family_id)
    .where('parent_id', '=', parent.id)
    .where('rotated_at', 'is', null)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(r.numUpdatedRows);
}

export async function revokeFamily(db: Kysely<Database>, familyId: string, now: number): Promise<void> {
  await db.updateTable('token_families').set({ revoked_at: now }).where('id', '=', familyId).where('revoked_at', 'is', null).execute();
  await db.updateTable('token_grants').set({ revoked_at: now }).where('family_id', '=', familyId).where('revoked_at', 'is', null).execute();
}

/**
 * Revokes every session of a member, families and their grants (modules/sessions/end-sessions.ts), in two
 * updates; returns how many sessions were live.
 */
export const revokeUserFamilies = async (db: Kysely<Database>, userId: string, now: number): Promise<number> =>
  (await revokeFamiliesOf(db, userId, {}, now)).length;

/**
 * Revokes a member's sessions of the given clients only, as revokeUserFamilies does (decision 0015: a
 * cardholders-only service ends when the member's last card goes); returns the client of each session that was live.
 */
export const revokeUserClientFamilies = async (db: Kysely<Database>, userId: string, clientIds: readonly string[], now: number): Promise<string[]> =>
  clientIds.length === 0 ? [] : revokeFamiliesOf(db, userId, { clientIds }, now);

/**
 * Revokes a member's sessions that came from the given SSO sessions, of every client (an ended SSO
 * session, modules/sso/end-sso-sessions.ts, decision 0026; an RP-initiated logout naming its `sid`,
 * modules/oidc/end-session.ts); returns the client of each session that was live.
 */
export const revokeUserSsoFamilies = async (db: Kysely<Database>, userId: string, ssoSessionIds: readonly string[], now: number): Promise<string[]> =>
  ssoSessionIds.length === 0 ? [] : revokeFamiliesOf(db, userId, { ssoSessionIds }, now);

/** Which of a member's families: of some clients, of some SSO sessions, or (neither) all. */
interface FamilyFilter {
  clientIds?: readonly string[];
  ssoSessionIds?: readonly string[];
}

/** The member's families the filter names, revoked with their grants; the clients of those that were live. */
async function revokeFamiliesOf(db: Kysely<Database>, userId: string, only: FamilyFilter, now: number): Promise<string[]> {
  let families = db.selectFrom('token_families').select('id').where('user_id', '=', userId);
  if (only.clientIds) families = families.where('client_id', 'in', [...only.clientIds]);
  if (only.ssoSessionIds) families = families.where('sso_session_id', 'in', [...only.ssoSessionIds]);
  await db.updateTable('token_grants').set({ revoked_at: now }).where('family_id', 'in', families).where('revoked_at', 'is', null).execute();
  let update = db.updateTable('token_families').set({ revoked_at: now }).where('user_id', '=', userId).where('revoked_at', 'is', null);
  if (only.clientIds) update = update.where('client_id', 'in', [...only.clientIds]);
  if (only.ssoSessionIds) update = update.where('sso_session_id', 'in', [...only.ssoSessionIds]);
  return (await update.returning('client_id').execute()).map((r) => r.client_id);
}

/** Revokes one session of the member, with its grants; the client it was of when it was live, else undefined. */
export async function revokeUserFamily(db: Kysely<Database>, p: { userId: string; familyId: string; now: number }): Promise<string | undefined> {
  const ended = await db
    .updateTable('token_families')
    .set({ revoked_at: p.now })
    .where('id', '=', p.familyId)
    .where('user_id', '=', p.userId)
    .where('revoked_at', 'is', null)
    .returning('client_id')
    .executeTakeFirst();
  if (ended) await db.updateTable('token_grants').set({ revoked_at: p.now }).where('family_id', '=', p.familyId).where('revoked_at', 'is', null).execute();
  return ended?.client_id;
}

/**
 * The member's live sessions (token families not revoked, with a refresh token not yet lapsed), each
 * with the SSO session it came from and when its last token was issued (its last use), last used first.
 */
export async function liveUserFamilies(db: Kysely<Database>, userId: string, now: number) {
  const rows = await db
    .selectFrom('token_families as f')
    .innerJoin('token_grants as g', 'g.family_id', 'f.id')
    .select(['f.id', 'f.client_id', 'f.created_at', 'f.sso_session_id'])
    .select((eb) => [eb.fn.max('g.created_at').as('last_used_at'), eb.fn.max('g.refresh_expires_at').as('until')])
    .where('f.user_id', '=', userId)
    .where('f.revoked_at', 'is', null)
    .groupBy(['f.id', 'f.client_id', 'f.created_at', 'f.sso_session_id'])
    .execute();
  return rows
    .map((r) => ({ id: r.id, client_id: r.client_id, created_at: Number(r.created_at), sso_session_id: r.sso_session_id, last_used_at: Number(r.last_used_at), until: Number(r.until) }))
    .filter((r) => r.until > now)
    .sort((a, b) => b.last_used_at - a.last_used_at);
}

/** The SSO session a session (token family) came from, or null. */
export const familySsoSession = async (db: Kysely<Database>, familyId: string): Promise<string | null> =>
  (await db.selectFrom('token_families').select('sso_session_id').where('id', '=', familyId).executeTakeFirst())?.sso_session_id ?? null;

/**
 * The clients and SSO sessions of a member's live sessions, each pair once: of the given SSO sessions
 * or all, of the given clients or all (modules/oidc/backchannel-logout.ts, before they are revoked).
 */
export async function liveSessionClients(
  db: Kysely<Database>,
  userId: string,
  only: FamilyFilter,
): Promise<{ client_id: string; sso_session_id: string | null }[]> {
  let q = db.selectFrom('token_families').select(['client_id', 'sso_session_id']).distinct().where('user_id', '=', userId).where('revoked_at', 'is', null);
  if (only.clientIds) q = q.where('client_id', 'in', [...only.clientIds]);
  if (only.ssoSessionIds) q = q.where('sso_session_id', 'in', [...only.ssoSessionIds]);
  return q.execute();
}

/**
 * The member a client knows by `subject` (migration 0018), from any of the client's sessions, ended or
 * not: an RP-initiated logout's `id_token_hint` names the member only so (modules/oidc/end-session.ts).
 */
export const memberOfSubject = async (db: Kysely<Database>, subject: string, clientId: string): Promise<string | undefined> =>
  (await db.selectFrom('token_families').select('user_id').where('subject', '=', subject).where('client_id', '=', clientId).limit(1).executeTakeFirst())?.user_id;

/**
 * A live (not revoked) session's authentication (`authTimeOf`): what a direct login it asks for
 * carries on (decision 0006, migration 0019); undefined when the session has ended.
 */
export async function liveFamilyAuthTime(db: Kysely<Database>, familyId: string): Promise<{ authTime: number | null } | undefined> {
  const row = await db
    .selectFrom('token_families as f')
    .select((eb) => authTimeOf(eb).as('auth_time'))
    .where('f.id', '=', familyId)
    .where('f.revoked_at', 'is', null)
    .executeTakeFirst();
  return row && { authTime: row.auth_time === null ? null : Number(row.auth_time) };
}

/** Whether a session (token family) is still live: not revoked. */
export async function familyLive(db: Kysely<Database>, familyId: string): Promise<boolean> {
  return (await db.selectFrom('token_families').select('id').where('id', '=', familyId).where('revoked_at', 'is', null).executeTakeFirst()) !== undefined;
}

/** Records a proof of presence on a live session (decision 0012); false when the session has ended meanwhile. */
export async function markProved(db: Kysely<Database>, familyId: string, now: number): Promise<boolean> {
  const r = await db.updateTable('token_families').set({ proved_at: now }).where('id', '=', familyId).where('revoked_at', 'is', null).executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** Clients the member has signed in to (their token families), for the Top page's service links. */
export const usedClientIds = async (db: Kysely<Database>, userId: string) =>
  (await db.selectFrom('token_families').select('client_id').distinct().where('user_id', '=', userId).execute()).map(
    (r) => r.client_id,
  );

/**
 * Revokes every session of a client, of every member, with their grants (a disabled client,
 * modules/client-admin/client-admin.ts, decision 0031): its access tokens then answer inactive and its
 * refresh tokens invalid_grant; returns how many sessions were live.
 */
export async function revokeClientFamilies(db: Kysely<Database>, clientId: string, now: number): Promise<number> {
  const families = db.selectFrom('token_families').select('id').where('client_id', '=', clientId);
  await db.updateTable('token_grants').set({ revoked_at: now }).where('family_id', 'in', families).where('revoked_at', 'is', null).execute();
  const r = await db.updateTable('token_families').set({ revoked_at: now }).where('client_id', '=', clientId).where('revoked_at', 'is', null).executeTakeFirst();
  return Number(r.numUpdatedRows);
}
