import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { LIMITS } from '@sso/contracts/constants';
import { DEVELOPMENT_LOOKUP_KEY, DEVELOPMENT_PAIRWISE_KEY, DEVELOPMENT_SIGNING_KEY_SECRET, sha256 } from './lib/secrets.ts';
import { ACTIVITY_RETENTION_DEFAULT_DAYS } from './db/maintenance.ts';
import { PG_POOL_DEFAULTS, type PgPoolSettings } from './db/database.ts';
import type { SqliteSynchronous } from './db/sqlite.ts';
import type { TracingSettings } from './lib/tracing.ts';
import { GOOGLE_SITEVERIFY_URL } from './ports/recaptcha.ts';

/** Repository root, so that defaults do not depend on the working directory. */
export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** Defined (true) by the production build in its bundle, dist/server/main.js (scripts/build.ts). */
declare const BUILT_LAYOUT: true | undefined;

/**
 * Where the files read at run time sit, the defaults of CLIENTS_FILE, CARD_MASTER_FILE,
 * NET_ANSWER_FILE, WEB_DIST and ADMIN_DIST: the repository when the sources run (tests, `npm run dev:server`),
 * dist/ beside the bundle when the build runs (decision 0023).
 */
const RUNTIME_FILES =
  typeof BUILT_LAYOUT === 'undefined'
    ? { config: `${REPO_ROOT}config/`, web: `${REPO_ROOT}apps/web/dist`, admin: `${REPO_ROOT}apps/admin/dist` }
    : {
        config: fileURLToPath(new URL('../config/', import.meta.url)),
        web: fileURLToPath(new URL('../web', import.meta.url)),
        admin: fileURLToPath(new URL('../admin', import.meta.url)),
      };

/**
 * Seven years (7 x 365 days): the audit log outlives the records it speaks of, long enough for the
 * retention periods a card company's auditors usually ask of access records (books and vouchers are
 * kept seven years under the Corporation Tax Act); a deployment sets its own (docs/operations.md).
 */
export const AUDIT_RETENTION_DEFAULT_DAYS = 2555;

const bool = z
  .enum(['true', 'false', '1', '0'], { error: 'must be true or false' })
  .transform((v) => v === 'true' || v === '1');

const origin = z
  .string()
  .refine((v) => /^https?:\/\/[^/?#]+$/.test(v), { error: 'must be an origin such as https://id.example.com' });

/** A comma-separated list of origins, such as https://www.googletagmanager.com,https://www.google-analytics.com. */
const origins = z
  .string()
  .transform((v) => v.split(',').map((s) => s.trim()).filter(Boolean))
  .refine((list) => list.every((v) => /^https:\/\/[^/?#*\s;']+$/.test(v)), { error: 'must be comma-separated https:// origins' });

/** A duration in whole milliseconds from `min` to ten minutes (SHUTDOWN_DRAIN_MS, SHUTDOWN_TIMEOUT_MS). */
const milliseconds = (min: number) => {
  const error = `must be a whole number of milliseconds from ${min} to 600000`;
  return z.coerce.number({ error }).int({ error }).min(min, { error }).max(600_000, { error });
};

/** The management listener's port (http/management.ts): 9464, the port OpenTelemetry's Prometheus exporter registered. */
export const METRICS_DEFAULT_PORT = 9464;

/** SHUTDOWN_DRAIN_MS's default in production: long enough for a balancer's readiness probes to see the node not ready (docs/operations.md "Health and draining"). */
export const PRODUCTION_DRAIN_DEFAULT_MS = 10_000;

const schema = z.object({
  NODE_ENV: z.enum(['development', 'test', 'production'], { error: 'must be development, test or production' }).default('development'),
  PORT: z.coerce.number({ error: 'must be a port number' }).int().min(0).max(65535, { error: 'must be a port number' }).default(8080),
  HOST: z.string().min(1).default('127.0.0.1'),
  METRICS_PORT: z
    .string()
    .refine((v) => v === 'off' || (/^\d{1,5}$/.test(v) && Number(v) <= 65535), { error: 'must be a port number, or off' })
    .transform((v) => (v === 'off' ? ('off' as const) : Number(v)))
    .default(METRICS_DEFAULT_PORT),
  METRICS_HOST: z.string().min(1).default('127.0.0.1'),
  PUBLIC_ORIGIN: origin.optional(),
  DATABASE_URL: z
    .string()
    .refine((v) => /^sqlite:.+/.test(v) || /^postgres(ql)?:\/\/.+/.test(v), {
      error: 'must be sqlite:PATH or postgres://…',
    })
    .default('sqlite:./data/sso.db'),
  CLIENTS_FILE: z.string().min(1).default(`${RUNTIME_FILES.config}clients.json`),
  CLIENTS_REFRESH_MS: z.coerce.number({ error: 'must be a whole number of milliseconds (100 or more)' }).int().min(100, { error: 'must be a whole number of milliseconds (100 or more)' }).default(2000),
  CARD_MASTER_FILE: z.string().min(1).default(`${RUNTIME_FILES.config}demo-cards.json`),
  NET_ANSWER_FILE: z.string().min(1).default(`${RUNTIME_FILES.config}demo-netanswer.json`),
  SMTP_URL: z.string().url({ error: 'must be an smtp:// or smtps:// URL' }).refine((v) => /^smtps?:/.test(v), { error: 'must be an smtp:// or smtps:// URL' }).optional(),
  SMTP_SINK_PORT: z.coerce.number({ error: 'must be a port number' }).int().min(0).max(65535, { error: 'must be a port number' }).default(1025),
  MAIL_FROM: z.string().min(3).default('"メンバーID" <no-reply@member-id.example>'),
  RECAPTCHA_SECRET: z.string().min(1).optional(),
  RECAPTCHA_MIN_SCORE: z.coerce.number({ error: 'must be a number from 0 to 1' }).min(0).max(1, { error: 'must be a number from 0 to 1' }).default(0.5),
  RECAPTCHA_VERIFY_URL: z.string().url({ error: 'must be an https:// or http:// URL' }).refine((v) => /^https?:/.test(v), { error: 'must be an https:// or http:// URL' }).default(GOOGLE_SITEVERIFY_URL),
  SEED_DEMO: bool.optional(),
  WEB_DIST: z.string().min(1).default(RUNTIME_FILES.web),
  /** The operator console's build, served at /admin (docs/decisions/0032-operator-identity.md). */
  ADMIN_DIST: z.string().min(1).default(RUNTIME_FILES.admin),
  DEV_CORS_ORIGINS: z.string().default('http://localhost:5173'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], { error: 'must be a pino level' }).default('info'),
  TRUST_PROXY: z
    .string()
    .transform((v): boolean | string[] => (['true', '1'].includes(v) ? true : ['false', '0'].includes(v) ? false : v.split(',').map((s) => s.trim()).filter(Boolean)))
    .refine((v) => typeof v === 'boolean' || (v.length > 0 && v.every((s) => /^[0-9a-fA-F.:]+(\/\d{1,3})?$/.test(s))), {
      error: 'must be true, false or comma-separated proxy addresses or CIDR ranges',
    })
    .default(false),
  OUT_OF_SERVICE: bool.default(false),
  PG_POOL_MAX: z.coerce.number({ error: 'must be a whole number of connections from 1 to 1000' }).int({ error: 'must be a whole number of connections from 1 to 1000' }).min(1, { error: 'must be a whole number of connections from 1 to 1000' }).max(1000, { error: 'must be a whole number of connections from 1 to 1000' }).default(PG_POOL_DEFAULTS.max),
  PG_CONNECTION_TIMEOUT_MS: milliseconds(1).default(PG_POOL_DEFAULTS.connectionTimeoutMs),
  PG_IDLE_TIMEOUT_MS: milliseconds(0).default(PG_POOL_DEFAULTS.idleTimeoutMs),
  PG_STATEMENT_TIMEOUT_MS: milliseconds(0).default(PG_POOL_DEFAULTS.statementTimeoutMs),
  SQLITE_SYNCHRONOUS: z.enum(['normal', 'full'], { error: 'must be normal or full' }).default('normal'),
  LOGIN_ADDRESS_FAILURES: z.coerce.number({ error: 'must be a whole number (0: no limit)' }).int().min(0, { error: 'must be a whole number (0: no limit)' }).default(LIMITS.loginFailuresPerAddress),
  LOGIN_NOTICE: bool.default(true),
  DPOP_NONCE: bool.default(false),
  ACTIVITY_RETENTION_DAYS: z.coerce.number({ error: 'must be a whole number of days, at least 1' }).int().min(1, { error: 'must be a whole number of days, at least 1' }).default(ACTIVITY_RETENTION_DEFAULT_DAYS),
  AUDIT_RETENTION_DAYS: z.coerce.number({ error: 'must be a whole number of days, at least 1' }).int().min(1, { error: 'must be a whole number of days, at least 1' }).default(AUDIT_RETENTION_DEFAULT_DAYS),
  LOOKUP_KEY: z.string().min(32, { error: 'must be at least 32 characters of random text' }).optional(),
  PAIRWISE_KEY: z.string().min(32, { error: 'must be at least 32 characters of random text' }).optional(),
  SIGNING_KEY_SECRET: z.string().min(32, { error: 'must be at least 32 characters of random text' }).optional(),
  ANALYTICS_SCRIPT_ORIGINS: origins.default([]),
  MONITORING_SCRIPT_ORIGINS: origins.default([]),
  ALLOW_SIMULATORS: z.enum(['staging'], { error: 'must be staging (or unset)' }).optional(),
  SHUTDOWN_DRAIN_MS: milliseconds(0).optional(),
  SHUTDOWN_TIMEOUT_MS: milliseconds(1).default(20_000),
  ADMIN_ALLOWED_ORIGINS: z
    .string()
    .transform((v) => v.split(',').map((s) => s.trim()).filter(Boolean))
    .refine((list) => list.every((v) => /^https?:\/\/[^/?#*\s]+$/.test(v)), { error: 'must be comma-separated http(s):// origins' })
    .optional(),
  ADMIN_ALLOWED_NETWORKS: z
    .string()
    .transform((v) => v.split(',').map((s) => s.trim()).filter(Boolean))
    .refine((list) => list.length > 0 && list.every(isCidr), { error: 'must be comma-separated addresses or CIDR ranges (10.0.0.0/8, 2001:db8::/32)' })
    .optional(),
  // OpenTelemetry's own variable names (the OTLP exporter specification), read here rather than by the SDK.
  OTEL_EXPORTER_OTLP_ENDPOINT: z.string().url({ error: 'must be an http:// or https:// URL' }).refine((v) => /^https?:/.test(v), { error: 'must be an http:// or https:// URL' }).optional(),
  OTEL_SERVICE_NAME: z.string().regex(/^[\x21-\x7e]{1,255}$/, { error: 'must be 1 to 255 visible ASCII characters' }).default('member-sso'),
});

export interface Config {
  env: 'development' | 'test' | 'production';
  port: number;
  host: string;
  /**
   * The management listener serving GET /metrics (http/management.ts; docs/operations.md "Metrics"):
   * its port (METRICS_PORT; undefined: `off`, no listener) and address (METRICS_HOST, loopback
   * unless configured: the metrics are for the scraper beside the node, not the members' network).
   */
  metricsPort: number | undefined;
  metricsHost: string;
  publicOrigin: string;
  databaseUrl: string;
  /** When a SQLite commit is durable: a process crash (normal) or also a power loss (full; decision 0008). */
  sqliteSynchronous: SqliteSynchronous;
  /** The clients imported into an empty client registry at the first start (decision 0031); ignored once the database has clients. */
  clientsFile: string;
  /** How often each node checks the database's client registry for a change (decision 0031), in ms. */
  clientsRefreshMs: number;
  /** The card master simulator's card list (docs/demo.md "Demo cards"). */
  cardMasterFile: string;
  /** The Net Answer simulator's accounts (docs/demo.md "Cards, Net Answer and points"). */
  netAnswerFile: string;
  smtpUrl: string | undefined;
  /** The PostgreSQL pool's size and time-outs (docs/operations.md "PostgreSQL pool"); unused with SQLite. */
  postgresPool: PgPoolSettings;
  /** Port of the in-process development SMTP sink, used when SMTP_URL is unset (0: any free port). */
  smtpSinkPort: number;
  mailFrom: string;
  recaptchaSecret: string | undefined;
  recaptchaMinScore: number;
  /** Where RECAPTCHA_SECRET's tokens are verified: Google's siteverify unless a proxy or a staging simulator is named. */
  recaptchaVerifyUrl: string;
  seedDemo: boolean;
  webDist: string;
  adminDist: string;
  devCorsOrigins: string[];
  logLevel: string;
  /**
   * Whom to believe X-Forwarded-For from: nobody (false), any proxy (true: the first address of the
   * header, which the proxy in front must then write itself), or the listed proxy addresses and ranges
   * (the nearest address that is not one of them: right for a CDN or WAF in front of a load balancer).
   */
  trustProxy: boolean | string[];
  /** Every API but the health check answers result 501 (HTTP 503): the SPA shows /503 (SPEC.md section 8). */
  outOfService: boolean;
  /** Failed logins allowed from one network address in 15 minutes (decision 0007; 0: no limit). */
  loginAddressFailures: number;
  /** A sign-in from a browser the member has not used before mails the member a notice (decision 0024). */
  loginNotice: boolean;
  /** Every DPoP proof must carry a nonce this server gave (RFC 9449 sections 8 and 9; docs/decisions/0037-dpop.md). */
  dpopNonce: boolean;
  /**
   * How long an audit row is kept (AUDIT_RETENTION_DAYS; docs/operations.md "The audit log"): the
   * retention purge is the only delete of the append-only audit log.
   */
  auditRetentionDays: number;
  /**
   * How long a member's activity log is kept (ACTIVITY_RETENTION_DAYS; docs/operations.md
   * "Retention"), deleted by the hourly purge (db/maintenance.ts).
   */
  activityRetentionDays: number;
  /**
   * On SIGTERM (http/shutdown.ts, docs/operations.md "Health and draining"): how long the node answers
   * readiness 503 before it closes (SHUTDOWN_DRAIN_MS), and how long the close may then take before
   * the process exits non-zero (SHUTDOWN_TIMEOUT_MS).
   */
  shutdownDrainMs: number;
  shutdownTimeoutMs: number;
  /** The key of the keyed digests of card numbers and login ids (lib/secrets.ts lookupDigest). */
  lookupKey: string;
  /** The key of the pairwise subject identifiers (OpenID Connect Core 1.0 section 8.1; lib/secrets.ts pairwiseDigest): never changed once partners hold them. */
  pairwiseKey: string;
  /** The key the ID token signing keys' private halves are encrypted under in the database (AES-256-GCM; decision 0025). */
  signingKeySecret: string;
  /** Origins of the analytics tag container's scripts and hits, allowed by the CSP only when set. */
  analyticsScriptOrigins: string[];
  /** Origins of the real-user monitoring agent's script and beacons, allowed by the CSP only when set. */
  monitoringScriptOrigins: string[];
  /** ALLOW_SIMULATORS=staging: a production start may run with the card master, Net Answer and SMS simulators. */
  allowSimulators: boolean;
  /**
   * The operator console's own origins (ADMIN_ALLOWED_ORIGINS; default PUBLIC_ORIGIN's): a browser
   * request to /api/admin carrying another Origin is refused (http/admin-limits.ts).
   */
  adminAllowedOrigins: string[];
  /**
   * The address ranges the console and its API answer from (ADMIN_ALLOWED_NETWORKS, CIDR; unset:
   * every address): from elsewhere /admin and /api/admin answer 404, as if absent (http/admin-limits.ts).
   */
  adminAllowedNetworks: string[] | undefined;
  /**
   * OpenTelemetry tracing (docs/operations.md "Tracing"): off (undefined) unless
   * OTEL_EXPORTER_OTLP_ENDPOINT is set; spans are sent as OTLP/HTTP JSON to `tracesUrl`.
   */
  tracing: TracingSettings | undefined;
}

export class ConfigError extends Error {}

const SECRET_VARIABLES = new Set(['LOOKUP_KEY', 'PAIRWISE_KEY', 'SIGNING_KEY_SECRET', 'SMTP_URL', 'DATABASE_URL', 'RECAPTCHA_SECRET', 'OTEL_EXPORTER_OTLP_ENDPOINT']);

/** Parses the environment once at boot (README "Configuration"). The first bad variable stops the start with one line naming it. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const input = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = schema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const name = String(issue?.path[0] ?? 'environment');
    // Secrets and URLs that may carry credentials are never echoed into the start-up log.
    const shown = SECRET_VARIABLES.has(name) ? '(value not shown)' : `(got ${JSON.stringify(env[name] ?? '')})`;
    throw new ConfigError(`Invalid configuration: ${name} ${issue?.message ?? 'is invalid'} ${shown}`);
  }
  const e = parsed.data;
  const production = e.NODE_ENV === 'production';
  if (production && !e.PUBLIC_ORIGIN) throw new ConfigError('Invalid configuration: PUBLIC_ORIGIN is required when NODE_ENV=production');
  // Production mail goes to a real server: the development sink never runs there, and its packages are not in dist/ (docs/operations.md "Container image").
  // Without SMTP_URL mail would go to the development sink: SMTP_SINK_PORT is ignored in production.
  if (production && !e.SMTP_URL) {
    throw new ConfigError('Invalid configuration: SMTP_URL is required when NODE_ENV=production (the development mail sink is neither run nor installed there)');
  }
  // A card number's digest under a known key is reversed by trying the card numbers: production has its own.
  if (production && (!e.LOOKUP_KEY || e.LOOKUP_KEY === DEVELOPMENT_LOOKUP_KEY)) {
    throw new ConfigError('Invalid configuration: LOOKUP_KEY is required when NODE_ENV=production (and not the development key)');
  }
  // Every partner's subject identifiers are digests under this key: known, they are joined across partners (decision 0025).
  if (production && (!e.PAIRWISE_KEY || e.PAIRWISE_KEY === DEVELOPMENT_PAIRWISE_KEY)) {
    throw new ConfigError('Invalid configuration: PAIRWISE_KEY is required when NODE_ENV=production (and not the development key)');
  }
  // The ID token signing keys are stored encrypted under it: under a published one, anyone with the database could sign.
  if (production && (!e.SIGNING_KEY_SECRET || e.SIGNING_KEY_SECRET === DEVELOPMENT_SIGNING_KEY_SECRET)) {
    throw new ConfigError('Invalid configuration: SIGNING_KEY_SECRET is required when NODE_ENV=production (and not the development secret)');
  }
  // Without a secret the development verifier passes any token: the login's bot check would be off (SPEC.md section 7).
  if (production && !e.RECAPTCHA_SECRET) throw new ConfigError('Invalid configuration: RECAPTCHA_SECRET is required when NODE_ENV=production');
  // The card master, Net Answer and the SMS gateway answer by their simulators (app.ts): only a staging system may run so.
  if (production && !e.ALLOW_SIMULATORS) {
    throw new ConfigError(
      'Invalid configuration: the card master, Net Answer and SMS simulators are selected; set ALLOW_SIMULATORS=staging to run them with NODE_ENV=production',
    );
  }
  // The demo members' passwords are published in docs/demo.md.
  if (production && e.SEED_DEMO) throw new ConfigError('Invalid configuration: SEED_DEMO=true is refused when NODE_ENV=production (the demo members\' passwords are published)');
  // Outside production the server shows every code and link at /dev/mailbox and passes any reCAPTCHA
  // token: it listens on this machine only, so that a forgotten NODE_ENV fails closed.
  if (!production && !isLoopback(e.HOST)) {
    throw new ConfigError(`Invalid configuration: HOST=${e.HOST} with NODE_ENV=${e.NODE_ENV} would serve the development mailbox to the network; set NODE_ENV=production, or HOST=127.0.0.1`);
  }
  // A wildcard bind serves the operator console to every network the host is on: production names its ranges.
  if (production && isWildcard(e.HOST) && !e.ADMIN_ALLOWED_NETWORKS) {
    throw new ConfigError(`Invalid configuration: ADMIN_ALLOWED_NETWORKS is required when NODE_ENV=production and HOST=${e.HOST} binds every address (the operator console would answer the whole network); name the staff's address ranges, or bind HOST to one interface`);
  }
  if (e.METRICS_PORT !== 'off' && e.METRICS_PORT !== 0 && e.METRICS_PORT === e.PORT) {
    throw new ConfigError(`Invalid configuration: METRICS_PORT=${e.METRICS_PORT} is PORT's too; the management listener needs a port of its own (or METRICS_PORT=off)`);
  }
  const published = production ? clientsWithDemoSecrets(e.CLIENTS_FILE) : [];
  if (published.length > 0) {
    throw new ConfigError(`Invalid configuration: CLIENTS_FILE carries the published demo secret of ${published.join(', ')}; give each confidential client its own secret`);
  }
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    metricsPort: e.METRICS_PORT === 'off' ? undefined : e.METRICS_PORT,
    metricsHost: e.METRICS_HOST,
    publicOrigin: e.PUBLIC_ORIGIN ?? `http://localhost:${e.PORT}`,
    databaseUrl: e.DATABASE_URL,
    sqliteSynchronous: e.SQLITE_SYNCHRONOUS,
    postgresPool: {
      max: e.PG_POOL_MAX,
      connectionTimeoutMs: e.PG_CONNECTION_TIMEOUT_MS,
      idleTimeoutMs: e.PG_IDLE_TIMEOUT_MS,
      statementTimeoutMs: e.PG_STATEMENT_TIMEOUT_MS,
    },
    clientsFile: e.CLIENTS_FILE,
    clientsRefreshMs: e.CLIENTS_REFRESH_MS,
    cardMasterFile: e.CARD_MASTER_FILE,
    netAnswerFile: e.NET_ANSWER_FILE,
    smtpUrl: e.SMTP_URL,
    smtpSinkPort: e.SMTP_SINK_PORT,
    mailFrom: e.MAIL_FROM,
    recaptchaSecret: e.RECAPTCHA_SECRET,
    recaptchaMinScore: e.RECAPTCHA_MIN_SCORE,
    recaptchaVerifyUrl: e.RECAPTCHA_VERIFY_URL,
    seedDemo: e.SEED_DEMO ?? !production,
    webDist: e.WEB_DIST,
    adminDist: e.ADMIN_DIST,
    devCorsOrigins: production ? [] : e.DEV_CORS_ORIGINS.split(',').map((s) => s.trim()).filter(Boolean),
    logLevel: e.LOG_LEVEL,
    trustProxy: e.TRUST_PROXY,
    outOfService: e.OUT_OF_SERVICE,
    loginAddressFailures: e.LOGIN_ADDRESS_FAILURES,
    loginNotice: e.LOGIN_NOTICE,
    dpopNonce: e.DPOP_NONCE,
    auditRetentionDays: e.AUDIT_RETENTION_DAYS,
    activityRetentionDays: e.ACTIVITY_RETENTION_DAYS,
    shutdownDrainMs: e.SHUTDOWN_DRAIN_MS ?? (production ? PRODUCTION_DRAIN_DEFAULT_MS : 0),
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
    lookupKey: e.LOOKUP_KEY ?? DEVELOPMENT_LOOKUP_KEY,
    pairwiseKey: e.PAIRWISE_KEY ?? DEVELOPMENT_PAIRWISE_KEY,
    signingKeySecret: e.SIGNING_KEY_SECRET ?? DEVELOPMENT_SIGNING_KEY_SECRET,
    analyticsScriptOrigins: e.ANALYTICS_SCRIPT_ORIGINS,
    monitoringScriptOrigins: e.MONITORING_SCRIPT_ORIGINS,
    allowSimulators: e.ALLOW_SIMULATORS === 'staging',
    // Outside production the console's Vite dev server (DEV_CORS_ORIGINS) is one of its origins too.
    adminAllowedOrigins: e.ADMIN_ALLOWED_ORIGINS ?? [
      new URL(e.PUBLIC_ORIGIN ?? `http://localhost:${e.PORT}`).origin,
      ...(production ? [] : e.DEV_CORS_ORIGINS.split(',').map((s) => s.trim()).filter(Boolean)),
    ],
    adminAllowedNetworks: e.ADMIN_ALLOWED_NETWORKS,
    tracing: e.OTEL_EXPORTER_OTLP_ENDPOINT ? { tracesUrl: tracesUrlOf(e.OTEL_EXPORTER_OTLP_ENDPOINT), serviceName: e.OTEL_SERVICE_NAME } : undefined,
  };
}

/** The OTLP exporter specification's signal URL from the generic endpoint: the path gains `v1/traces` (one slash between). */
const tracesUrlOf = (endpoint: string) => `${endpoint.replace(/\/+$/, '')}/v1/traces`;

/** A bind to every address of the host (IPv4 or IPv6). */
const isWildcard = (host: string) => ['0.0.0.0', '::', '[::]', '0:0:0:0:0:0:0:0'].includes(host);

/** An IPv4 or IPv6 address, or a CIDR range of one (a prefix within the address's length). */
function isCidr(value: string): boolean {
  const [address = '', prefix, ...rest] = value.split('/');
  const version = isIP(address);
  if (version === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128);
}

/** An address of this machine only: the development server listens on nothing else. */
const isLoopback = (host: string) => host === 'localhost' || host === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);

/**
 * The confidential clients of the clients file whose secret is docs/demo.md's published one,
 * `demo-secret-<client_id>`. A file that cannot be read is left to the registry's own start-up error.
 */
function clientsWithDemoSecrets(file: string): string[] {
  let list: unknown;
  try {
    list = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return [];
  }
  if (!Array.isArray(list)) return [];
  return list.flatMap((c: { client_id?: unknown; secret_sha256?: unknown }) =>
    typeof c?.client_id === 'string' && c.secret_sha256 === sha256(`demo-secret-${c.client_id}`) ? [c.client_id] : [],
  );
}
