/**
 * The one seam through which the black-box suites (e2e/, e2e/abuse/) and the benchmark (bench/) reach
 * into the server (entry `@sso/server/test-support/internals`): what they need of it beyond HTTP, and
 * nothing else. Each line says who needs it and why; a new need adds a line here, never a deep import
 * (eslint.config.js forbids `apps/server/src` paths outside apps/server).
 */

// The database: the abuse suite reads and plants rows of a running system; the benchmark seeds members.
export { openDatabase, type Db, type Dialect } from '../db/database.ts';
export type { Database } from '../db/schema.ts';
export { buildApp } from '../app.ts';
export { loadConfig } from '../config.ts';
export { DEMO } from '../seed.ts';

// Digests and identifiers, to find the rows a request wrote (lookup digests, token hashes).
export { lookupDigest, newId, setLookupKey, sha256 } from '../lib/secrets.ts';
// Password hashes as the server writes them (argon2id), and how many it has verified (the benchmark's hash count).
export { hashPassword, passwordVerifications, verifyPassword } from '../lib/passwords.ts';
// The host's transparent huge page mode, which the hash's CPU depends on: the benchmark's machine line.
export { transparentHugePages } from '../lib/huge-pages.ts';

// The guessing limits' keys, to read a counter the suite drove up (SPEC.md section 7).
export { addressKey } from '../modules/account/credentials-service.ts';
export { accountLockKey } from '../modules/verification/account-lock.ts';
export { activationLockKey } from '../modules/cards/activation-service.ts';
export { verifyLockKey } from '../modules/verification/purposes.ts';

// Mail: the dev mailbox and SMTP sink a system under test delivers to, and the outbox worker's pace.
export { DevMailbox } from '../modules/notifications/dev-mailbox.ts';
export { OUTBOX_WORKER_INTERVAL_MS } from '../modules/notifications/messaging.ts';
export { startSmtpSink } from '../modules/notifications/smtp-sink.ts';

// The benchmark's seed: members, cards, devices, passkeys and token families written as the server writes them.
export { NO_PROFILE, insertMember } from '../modules/account/member-repo.ts';
export { recordTermAcceptance } from '../modules/account/user-repo.ts';
export { noteMemberDevice } from '../modules/account/device-repo.ts';
export { deviceHashOf } from '../modules/account/new-device-notice.ts';
export { insertMemberCard } from '../modules/cards/card-repo.ts';
// The interop journeys register their relying parties in a CLIENTS_FILE of their own (e2e/support/clients-file.ts).
export { loadClients, type ClientDefinition } from '../modules/clients/clients.ts';
export { audienceOf } from '../modules/oauth/audience.ts';
export { insertFamily } from '../modules/oauth/token-repo.ts';
export { issuePair, newPair } from '../modules/oauth/tokens.ts';
// The benchmark's PostgreSQL floor (bench/pg-floor.ts): the refresh grant's two database steps, as the token endpoint takes them.
export { findTokenOfClient, rotatePair } from '../modules/oauth/tokens.ts';
export { subjectFor } from '../modules/oidc/subject.ts';
export { insertPasskey } from '../modules/passkeys/passkey-repo.ts';
export { userHandleOf } from '../modules/passkeys/relying-party.ts';

// The benchmark of the retention sweep (bench/purge.ts): the schema, and the purge it measures.
export { migrateToLatest } from '../db/migrations.ts';
export { purgeExpired } from '../db/maintenance.ts';

// The interop suite registers a relying party on a running system's database as an administrator does (decision 0031).
export { registerClient } from '../modules/client-admin/client-admin.ts';
export { openClientStore } from '../modules/clients/client-store.ts';
export { systemClock } from '../lib/clock.ts';
