/**
 * The unit tests' kit of the real app: the vitest-free test app and its in-process OAuth client
 * (test-app-core.ts), and the describe block's lifecycle (vitest.ts).
 */
export * from './test-app-core.ts';
export { withTestApp } from './vitest.ts';
