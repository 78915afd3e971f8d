/**
 * The test harness's vitest-free entry (`@sso/server/test-support`), for e2e/ and bench/: the real
 * app in process or listening, the whole system in its own process (as `npm start` runs it), a test
 * database, the one OAuth test client, a software authenticator, valid sign-up bodies and the route
 * recorder. The describe-block lifecycle is apart (`@sso/server/test-support/vitest`), and so is the
 * seam into the server's internals (`@sso/server/test-support/internals`).
 */
export * from './oauth-client.ts';
export {
  authorizeQuery as inProcessAuthorizeQuery,
  CHALLENGE,
  createTestApp,
  getCode,
  loginTokens,
  postAuthorize,
  PRODUCTION_ENV,
  TEST_ORIGIN,
  VERIFIER,
  WEB_REDIRECT,
  type AuthorizeParams,
  type TestApp,
} from './test-app-core.ts';
export { freePort, startListeningApp, type ListeningApp } from './listening-app.ts';
export { ROOT, startSystem, type RunningSystem, type SystemOptions } from './running-system.ts';
export { createTestDb, TEST_PG_URL, type TestDb } from './test-db.ts';
export { SoftAuthenticator, type CeremonyKnobs } from './soft-authenticator.ts';
export { catchRegisteredRoutes } from './registered-routes.ts';
export { CARDS, cardBody, openBody, OPEN_PASSWORD, PASSWORD as CARD_SIGNUP_PASSWORD } from './signup-bodies.ts';
export { dpopKey, dpopProof, type DpopKey, type ProofClaims } from './dpop-kit.ts';
