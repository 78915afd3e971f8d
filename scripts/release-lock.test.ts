import { describe, expect, it } from 'vitest';
import { releaseLock, type LockEntry, type Lockfile } from './release-lock.ts';

const lock = (packages: Record<string, LockEntry>): Lockfile => ({ name: 'root', version: '1.0.0', lockfileVersion: 3, requires: true, packages: { '': { name: 'root' }, ...packages } });
const manifest = (dependencies: Record<string, string>) => ({ name: 'release', version: '1.0.0', dependencies });

describe('the release lock', () => {
  it('holds what the dependencies need, at the pinned versions, and nothing of the other workspaces or the tooling', () => {
    const root = lock({
      'apps/server': { name: '@x/server', dependencies: { fastify: '^5', '@x/contracts': '*' } },
      'node_modules/@x/contracts': { resolved: 'packages/contracts', link: true },
      'node_modules/fastify': { version: '5.6.1', integrity: 'sha512-f', dependencies: { pino: '^9', semver: '^7' } },
      'node_modules/fastify/node_modules/semver': { version: '7.7.0', integrity: 'sha512-s7' },
      'node_modules/semver': { version: '6.3.1', integrity: 'sha512-s6', dev: true },
      'node_modules/pino': { version: '9.0.0', integrity: 'sha512-p', devOptional: true },
      'node_modules/vite': { version: '7.1.12', integrity: 'sha512-v', dev: true },
    });
    const released = releaseLock(root, manifest({ fastify: '^5' }), { fastify: 'apps/server' });
    expect(released.packages).toEqual({
      '': { name: 'release', version: '1.0.0', dependencies: { fastify: '^5' } },
      'node_modules/fastify': { version: '5.6.1', integrity: 'sha512-f', dependencies: { pino: '^9', semver: '^7' } },
      'node_modules/fastify/node_modules/semver': { version: '7.7.0', integrity: 'sha512-s7' },
      'node_modules/pino': { version: '9.0.0', integrity: 'sha512-p' },
    });
  });

  it("moves a workspace's own node_modules to the release's root", () => {
    const root = lock({
      'apps/server/node_modules/zod': { version: '4.1.12', integrity: 'sha512-z4' },
      'node_modules/zod': { version: '3.25.0', integrity: 'sha512-z3' },
    });
    const released = releaseLock(root, manifest({ zod: '^4' }), { zod: 'apps/server' });
    expect(released.packages['node_modules/zod']).toEqual({ version: '4.1.12', integrity: 'sha512-z4' });
  });

  it('marks what only optional edges reach as optional, and leaves out optional packages of other platforms', () => {
    const root = lock({
      'node_modules/argon2': { version: '2.0.2', optionalDependencies: { 'argon2-linux-x64': '2.0.2', 'argon2-darwin-arm64': '2.0.2' }, peerDependencies: { native: '*' }, peerDependenciesMeta: { native: { optional: true } } },
      'node_modules/argon2-linux-x64': { version: '2.0.2', optional: true, os: ['linux'] },
    });
    const released = releaseLock(root, manifest({ argon2: '^2' }), { argon2: 'apps/server' });
    expect(Object.keys(released.packages)).toEqual(['', 'node_modules/argon2', 'node_modules/argon2-linux-x64']);
    expect(released.packages['node_modules/argon2-linux-x64']).toEqual({ version: '2.0.2', os: ['linux'], optional: true });
    expect(released.packages['node_modules/argon2']?.optional).toBeUndefined();
  });

  it('stops the build when a required package is missing, or two would land on one place', () => {
    expect(() => releaseLock(lock({ 'node_modules/a': { version: '1.0.0', dependencies: { b: '1' } } }), manifest({ a: '1' }), { a: 'apps/server' })).toThrow(
      'b, needed by node_modules/a, is not in package-lock.json',
    );
    const clash = lock({
      'apps/server/node_modules/b': { version: '2.0.0' },
      'node_modules/a': { version: '1.0.0', dependencies: { b: '1' } },
      'node_modules/b': { version: '1.0.0' },
    });
    expect(() => releaseLock(clash, manifest({ a: '1', b: '2' }), { a: 'apps/server', b: 'apps/server' })).toThrow(
      'apps/server/node_modules/b and node_modules/b would both be installed at node_modules/b',
    );
  });
});
