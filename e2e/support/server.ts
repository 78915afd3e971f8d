/** The whole system in its own process, as `npm start` runs it: the test harness's (apps/server/src/test-support/running-system.ts). */
export { freePort, ROOT, startSystem, type RunningSystem, type SystemOptions } from '@sso/server/test-support';
