import Fastify, { type FastifyInstance } from 'fastify';
import formbody from '@fastify/formbody';
import type { Config } from './config.ts';
import { openDatabase, type Db } from './db/database.ts';
import { migrateToLatest } from './db/migrations.ts';
import { seedDemo } from './seed.ts';
import { purgeExpired } from './db/maintenance.ts';
import { backgroundTasks } from './lib/background.ts';
import { setMetricsSource } from './lib/metrics.ts';
import { hugePagesWarning } from './lib/huge-pages.ts';
import { purgeAudit } from './modules/audit/audit.ts';
import { clientErrorHandler, frameworkErrors, registerErrorHandling } from './http/error-handler.ts';
import { registerAdminLimits } from './http/admin-limits.ts';
import { registerJsonBodyParser } from './http/json-body.ts';
import { requestSerializer } from './http/log-serializers.ts';
import { logDestination } from './http/log-destination.ts';
import { RequestLog } from './http/request-log.ts';
import { registerDevCors, registerSecurityHeaders } from './http/security-headers.ts';
import { registerWebOriginCors } from './http/web-origin-cors.ts';
import { registerSpa } from './http/spa.ts';
import { registerOutOfService } from './http/out-of-service.ts';
import { registerHealth } from './http/health.ts';
import { registerRequestId, requestIdOf } from './http/request-id.ts';
import { registerTracing } from './http/tracing.ts';
import { startTracing, traceLogFields } from './lib/tracing.ts';
import { registerRequestContext } from './lib/request-context.ts';
import { setSecurityLog } from './lib/security-events.ts';
import { registerOpenApi } from './http/openapi.ts';
import { systemClock, type Clock } from './lib/clock.ts';
import { registerLoginRoutes } from './modules/login/routes.ts';
import { registerAccountChangeRoutes } from './modules/account-change/routes.ts';
import { registerActivityRoutes } from './modules/activity/routes.ts';
import { registerNotMeRoutes } from './modules/not-me/routes.ts';
import { registerPasskeyRoutes } from './modules/passkeys/routes.ts';
import { registerFreshProofRoutes } from './modules/fresh-proof/routes.ts';
import { registerProfileRoutes } from './modules/profile/routes.ts';
import { registerTopRoutes } from './modules/top/routes.ts';
import { loadClientsFile } from './modules/clients/clients.ts';
import { clientsFileDiffers, clientsWithDemoSecrets, importClientsIfEmpty, openClientStore } from './modules/clients/client-store.ts';
import { clientKeySets } from './modules/oauth/client-keys.ts';
import { registerOAuthRoutes } from './modules/oauth/routes.ts';
import { registerSignupRoutes } from './modules/signup/routes.ts';
import { registerOpenSignupRoutes } from './modules/open-signup/routes.ts';
import { registerRecoverRoutes } from './modules/recover/routes.ts';
import { registerCardRoutes } from './modules/cards/routes.ts';
import { registerDirectLoginRoutes } from './modules/direct-login/routes.ts';
import { passwordGrant } from './modules/direct-login/redeem-service.ts';
import { registerPointRoutes } from './modules/points/routes.ts';
import { registerLinkRoutes } from './modules/link/routes.ts';
import { registerUpgradeRoutes } from './modules/upgrade/routes.ts';
import { registerPartnerDemoRoutes } from './modules/partner-demo/routes.ts';
import { registerSsoRoutes } from './modules/sso/routes.ts';
import { registerSessionsRoutes } from './modules/sessions/routes.ts';
import { registerAdminRoutes } from './modules/operators/admin-routes.ts';
import { registerOperatorRoutes } from './modules/operators/routes.ts';
import { registerSupportRoutes } from './modules/support/routes.ts';
import type { NetAnswer } from './ports/net-answer.ts';
import { loadNetAnswerSimulator, type NetAnswerSimulator } from './ports/net-answer-simulator.ts';
import type { PointLedger } from './ports/point-ledger.ts';
import { pointLedgerSimulator } from './ports/point-ledger-simulator.ts';
import type { CardMaster } from './ports/card-master.ts';
import { loadCardMasterSimulator } from './ports/card-master-simulator.ts';
import { registerDevMailboxRoutes } from './modules/notifications/dev-mailbox-routes.ts';
import { startMessaging } from './modules/notifications/messaging.ts';
import { outboxBacklog } from './modules/notifications/outbox-repo.ts';
import type { SmsGateway } from './ports/sms.ts';
import { developmentRecaptcha, googleRecaptcha, type RecaptchaVerifier } from './ports/recaptcha.ts';
import { setLookupKey, setPairwiseKey } from './lib/secrets.ts';
import { backchannelDelivery } from './modules/oidc/backchannel-logout.ts';
import { registerOidcRoutes } from './modules/oidc/routes.ts';
import { endBrowserSessionOf } from './modules/sso/logout.ts';
import { jwtSigner } from './modules/oidc/jwt-signer.ts';
import { ensureSigningKey, SIGNING_ALGS, signingKeyStore } from './modules/oidc/signing-keys.ts';
import { dpopSettings } from './modules/oauth/dpop.ts';

export interface AppOverrides {
  clock?: Clock;
  db?: Db;
  recaptcha?: RecaptchaVerifier;
  sms?: SmsGateway;
  cardMaster?: CardMaster;
  netAnswer?: NetAnswer;
  pointLedger?: PointLedger;
  logger?: boolean;
  /** Where the log goes instead of stdout (a test that reads it). */
  logStream?: { write(line: string): void };
  /** Where the kernel's transparent huge page mode is read (lib/huge-pages.ts): a test's file. */
  hugePagesFile?: string;
}

/** The file's entries, or undefined when it cannot be read (a later start does not need it). */
function readable<T>(load: () => T): T | undefined {
  try {
    return load();
  } catch {
    return undefined;
  }
}

/** Builds the whole server without listening (ARCHITECTURE.md): migrations run, demo data seeded when configured. */
export async function buildApp(config: Config, overrides: AppOverrides = {}): Promise<FastifyInstance> {
  setLookupKey(config.lookupKey);
  setPairwiseKey(config.pairwiseKey);
  // The company's card master is its own system: until its adapter is configured, the simulator answers.
  const cardMaster = overrides.cardMaster ?? loadCardMasterSimulator(config.cardMasterFile);
  // OpenTelemetry, off unless OTEL_EXPORTER_OTLP_ENDPOINT is set (docs/operations.md "Tracing"):
  // started before the database is opened, whose queries it traces; stopped (flushed) on close.
  const stopTracing = config.tracing ? await startTracing(config.tracing) : undefined;
  const traced = stopTracing !== undefined;
  const db =
    overrides.db ??
    openDatabase(config.databaseUrl, { postgres: config.postgresPool, sqlite: { synchronous: config.sqliteSynchronous, checkpointInWorker: true, memoryMapped: true }, traced });
  const clock = overrides.clock ?? systemClock;
  // Net Answer and the point ledger are the company's systems too: their simulators answer here.
  const netAnswerSimulator: NetAnswerSimulator | undefined = overrides.netAnswer
    ? undefined
    : loadNetAnswerSimulator(config.netAnswerFile, config.publicOrigin, clock);
  const netAnswer = overrides.netAnswer ?? (netAnswerSimulator as NetAnswer);
  const pointLedger = overrides.pointLedger ?? pointLedgerSimulator(db.kysely);
  const recaptcha =
    overrides.recaptcha ??
    (config.recaptchaSecret ? googleRecaptcha(config.recaptchaSecret, config.recaptchaMinScore, config.recaptchaVerifyUrl) : developmentRecaptcha);

  await migrateToLatest(db.kysely);
  // The OAuth client registry is the database's (decision 0031): CLIENTS_FILE fills it at the first
  // start only; later starts say so in one line when the file differs from it.
  const loadFile = () => loadClientsFile(config.clientsFile, config.publicOrigin);
  const imported = await importClientsIfEmpty(db.kysely, loadFile, clock.now());
  const clients = await openClientStore({ db: db.kysely, clock, publicOrigin: config.publicOrigin, refreshMs: config.clientsRefreshMs });
  const published = config.env === 'production' ? clientsWithDemoSecrets(clients) : [];
  if (published.length > 0) {
    if (!overrides.db) await db.close();
    await stopTracing?.();
    throw new Error(`Invalid configuration: the client registry in the database carries the published demo secret of ${published.join(', ')}; give each confidential client its own secret (rotate it and retire the old one; docs/decisions/0031-clients-in-the-database.md)`);
  }
  const fromFile = imported === 0 ? readable(loadFile) : undefined;
  const fileIgnored = fromFile !== undefined && (await clientsFileDiffers(db.kysely, fromFile));
  if (config.seedDemo) await seedDemo(db.kysely, clients);
  // The signing keys (decisions 0025, 0034): one of each algorithm made at the start that finds none; a wrong secret stops the start.
  const signingKeyDeps = { db: db.kysely, clock, secret: config.signingKeySecret };
  await ensureSigningKey(signingKeyDeps);
  const signingKeys = signingKeyStore(signingKeyDeps);

  // The log's buffered destination, written every second (http/log-destination.ts), unless a test gives its own stream.
  const logOutput = overrides.logger === false || overrides.logStream ? undefined : logDestination();
  const app = Fastify({
    logger:
      overrides.logger === false
        ? false
        : {
            level: config.logLevel,
            redact: ['req.headers.authorization', 'req.headers.cookie'],
            // One-time tokens, codes and states in query strings never reach the log (http/log-serializers.ts).
            serializers: { req: requestSerializer },
            stream: overrides.logStream ?? logOutput?.stream,
            // The active span's trace_id and span_id on each line, when tracing is on (lib/tracing.ts).
            ...(traced ? { mixin: traceLogFields } : {}),
          },
    // An incoming X-Request-Id is kept when valid, else a new UUID (request-id.ts); never taken unchecked.
    requestIdHeader: false,
    genReqId: requestIdOf,
    // One request log line, when the answer is sent (http/request-log.ts), instead of Fastify's two.
    logController: new RequestLog(),
    trustProxy: config.trustProxy,
    bodyLimit: 64 * 1024,
    // Requests refused before routing answer the 901 body too, never Fastify's own (error-handler.ts).
    frameworkErrors,
    clientErrorHandler,
  });
  // The security events written outside a request go through this app's log (lib/security-events.ts).
  setSecurityLog(app.log);
  if (config.env === 'production' && config.allowSimulators) {
    app.log.warn('ALLOW_SIMULATORS=staging: the card master, Net Answer and SMS answer by their simulators (a staging system, never members\' production)');
  }
  const hugePages = hugePagesWarning(overrides.hugePagesFile);
  if (hugePages) app.log.warn(hugePages);
  if (fileIgnored) {
    app.log.warn(`CLIENTS_FILE (${config.clientsFile}) differs from the client registry in the database and is not read: the database's clients are in use (docs/decisions/0031-clients-in-the-database.md)`);
  }
  const purge = setInterval(() => {
    // In bounded batches within a time budget; the member activity log kept ACTIVITY_RETENTION_DAYS (db/maintenance.ts).
    purgeExpired(db.kysely, clock.now(), { activityRetentionDays: config.activityRetentionDays }).catch((err: unknown) => app.log.warn({ err }, 'purge of expired rows failed'));
    // The audit log's retention (AUDIT_RETENTION_DAYS): its only delete (modules/audit/audit.ts).
    purgeAudit(db.kysely, clock.now(), config.auditRetentionDays).catch((err: unknown) => app.log.warn({ err }, 'purge of the audit log failed'));
  }, 60 * 60 * 1000);
  purge.unref();
  // ID tokens and logout tokens are signed in a worker thread, off the event loop (jwt-signer.ts).
  const signer = jwtSigner(signingKeys, { warn: (message) => app.log.warn(message) });
  const oidc = { issuer: config.publicOrigin, signingKeys, signer };
  const backchannel = backchannelDelivery({ ...oidc, clients, clock });
  const messaging = await startMessaging(config, { db: db.kysely, clock, log: app.log, sms: overrides.sms, backchannel });
  // The gauges that read this app's outbox and pool (lib/metrics.ts, docs/operations.md "Metrics"), until it closes.
  const metricsSourceGone = setMetricsSource({ outboxBacklog: () => outboxBacklog(db.kysely), pool: () => db.poolCounts?.(), now: () => clock.now(), hugePagesFile: overrides.hugePagesFile });
  app.addHook('onClose', async () => {
    metricsSourceGone();
    clearInterval(purge);
    await clients.close();
    await messaging.close();
    await signer.close();
    logOutput?.close();
    if (!overrides.db) await db.close();
    await stopTracing?.();
  });
  // Each node follows the registry's changes by its version (decision 0031), until the app closes (above).
  clients.startPolling(app.log);

  registerErrorHandling(app);
  // Each request a span, its context bound for the hooks and the handler (http/tracing.ts): first, so that it covers them all.
  if (traced) registerTracing(app);
  // Before every other onRequest hook, so that an answer a hook ends early carries the request's id too.
  registerRequestId(app);
  // The request under way, for the services' security events and activity rows (lib/request-context.ts).
  registerRequestContext(app);
  // First of the onRequest hooks, so that an answer another hook ends early carries the headers too.
  // A logout's return is a redirect after the confirmation form's post, which form-action governs too.
  registerSecurityHeaders(app, config, () => clients.redirectUris());
  // The operator console's address ranges and origins (ADMIN_ALLOWED_NETWORKS, ADMIN_ALLOWED_ORIGINS), before any route.
  registerAdminLimits(app, config);
  if (config.outOfService) registerOutOfService(app);
  registerDevCors(app, config.devCorsOrigins);
  // Browser apps' pages on their registered web origins, at the token, userinfo and revocation endpoints (decision 0035).
  registerWebOriginCors(app, () => clients.webOrigins(), [new URL(config.publicOrigin).origin, ...config.devCorsOrigins]);
  await app.register(formbody);
  // JSON bodies nest no deeper than any contract's (json-body.ts); form bodies cannot nest (fast-querystring).
  registerJsonBodyParser(app);

  const deps = {
    db: db.kysely,
    // One set of tasks run after the answer (mail, SMS, log rows), waited for on close: added after
    // the hook above, so it runs before the database closes.
    background: backgroundTasks(app),
    clock,
    clients,
    // The keys of private_key_jwt clients (decision 0038): http: key set URIs outside production only.
    clientKeys: clientKeySets({ clock, allowHttp: config.env !== 'production' }),
    recaptcha,
    ...oidc,
    loginAddressFailures: config.loginAddressFailures,
    loginNotice: config.loginNotice,
    // DPoP proofs (RFC 9449; docs/decisions/0037-dpop.md): their URIs under PUBLIC_ORIGIN, nonces when DPOP_NONCE is on.
    dpop: dpopSettings({ publicOrigin: config.publicOrigin, requireNonce: config.dpopNonce, secret: config.signingKeySecret }),
    notifier: messaging.notifier,
    cardMaster,
    netAnswer,
    pointLedger,
  };
  registerOAuthRoutes(app, { ...deps, passwordGrant: (body, p) => passwordGrant(deps, body, p) });
  registerSsoRoutes(app, deps);
  registerSessionsRoutes(app, deps);
  registerOidcRoutes(app, { ...deps, endBrowserSession: endBrowserSessionOf(deps) });
  registerLoginRoutes(app, deps);
  registerAccountChangeRoutes(app, deps);
  registerFreshProofRoutes(app, deps);
  registerPasskeyRoutes(app, deps);
  registerProfileRoutes(app, deps);
  registerActivityRoutes(app, deps);
  registerTopRoutes(app, deps);
  registerSignupRoutes(app, deps);
  registerOpenSignupRoutes(app, deps);
  registerRecoverRoutes(app, deps);
  registerNotMeRoutes(app, deps);
  registerCardRoutes(app, deps);
  registerDirectLoginRoutes(app, deps);
  registerPointRoutes(app, deps);
  registerLinkRoutes(app, deps);
  registerUpgradeRoutes(app, deps);
  registerOperatorRoutes(app, deps);
  registerAdminRoutes(app, { ...deps, publicOrigin: config.publicOrigin });
  registerSupportRoutes(app, deps);
  if (messaging.mailbox) registerDevMailboxRoutes(app, messaging.mailbox);
  // The demo partner pages and the Net Answer landing page exist in development only (decision 0006).
  if (config.env !== 'production') registerPartnerDemoRoutes(app, { ...deps, netAnswerSimulator });
  registerHealth(app, { db, signingKeyLoaded: () => Promise.all(SIGNING_ALGS.map((alg) => signingKeys.signingKey(alg))) });
  // The API's OpenAPI 3.1 document, generated from the contracts' route catalogue.
  registerOpenApi(app, config.publicOrigin);
  await registerSpa(app, config.webDist, { sourceMaps: config.env !== 'production', adminDist: config.adminDist });
  return app;
}
