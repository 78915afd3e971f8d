/** One package of a package-lock.json (lockfileVersion 3), as far as this file reads it. */
export interface LockEntry {
  version?: string;
  link?: boolean;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
  dev?: boolean;
  optional?: boolean;
  devOptional?: boolean;
  peer?: boolean;
  [field: string]: unknown;
}

export interface Lockfile {
  name: string;
  version: string;
  lockfileVersion: number;
  requires?: boolean;
  packages: Record<string, LockEntry>;
}

/** The release directory's package.json, as far as its lock depends on it. */
export interface ReleaseManifest {
  name: string;
  version: string;
  engines?: Record<string, string>;
  dependencies: Record<string, string>;
}

/**
 * Where Node looks for `name` from the package at `location` (a key of the lock's `packages`: '' is
 * the root, `apps/server` a workspace, `node_modules/a/node_modules/b` a nested package): its own
 * node_modules, then each parent's, as Node's module resolution walks up the directories.
 */
function candidates(location: string, name: string): string[] {
  const parts = location === '' ? [] : location.split('/');
  const found: string[] = [];
  for (let i = parts.length; i >= 0; i--) {
    if (i > 0 && parts[i - 1] === 'node_modules') continue;
    const dir = parts.slice(0, i).join('/');
    found.push(dir === '' ? `node_modules/${name}` : `${dir}/node_modules/${name}`);
  }
  return found;
}

interface Edge {
  name: string;
  optional: boolean;
}

/** The packages an entry needs installed beside it: dependencies, optional ones and required peers. */
function edges(entry: LockEntry): Edge[] {
  const peersOptional = entry.peerDependenciesMeta ?? {};
  return [
    ...Object.keys(entry.dependencies ?? {}).map((name) => ({ name, optional: false })),
    ...Object.keys(entry.optionalDependencies ?? {}).map((name) => ({ name, optional: true })),
    ...Object.keys(entry.peerDependencies ?? {}).map((name) => ({ name, optional: peersOptional[name]?.optional === true })),
  ];
}

/**
 * The lock of the release directory (scripts/build.ts, decision 0023): exactly the packages of the
 * committed root lock that the manifest's dependencies need, at the versions and integrity that lock
 * pins, so that `npm ci --omit=dev` there installs the tree the tests ran against and nothing floats.
 *
 * `from` names, for each dependency, the workspace that declares it (e.g. `apps/server`): it is
 * found as Node finds it from there, and the workspace's own node_modules become the release's
 * root node_modules. Two different packages landing on one place of the release tree stop the
 * build rather than install the wrong one. Flags are worked out again for the release alone: nothing
 * is `dev`, and a package is `optional` when only optional edges reach it (platform builds).
 */
export function releaseLock(root: Lockfile, manifest: ReleaseManifest, from: Record<string, string>): Lockfile {
  const packages = root.packages;
  const workspaces = [...new Set(Object.values(from))];
  const releaseLocation = (location: string) => {
    const workspace = workspaces.find((w) => location.startsWith(`${w}/node_modules/`));
    return workspace === undefined ? location : location.slice(workspace.length + 1);
  };

  const resolve = (location: string, name: string, optional: boolean): string | undefined => {
    const found = candidates(location, name).find((c) => packages[c] !== undefined);
    if (found === undefined) {
      // A platform build of another system is optional, and absent from a lock written on Linux.
      if (optional) return undefined;
      throw new Error(`release lock: ${name}, needed by ${location || 'the root'}, is not in package-lock.json (run npm install)`);
    }
    if (packages[found]?.link) throw new Error(`release lock: ${name} is a workspace link (${found}); the build must inline it, not install it`);
    return found;
  };

  /** Every location reachable from the manifest's dependencies, over required edges only or over all. */
  const reach = (withOptional: boolean): Set<string> => {
    const seen = new Set<string>();
    const queue: string[] = [];
    const visit = (location: string | undefined) => {
      if (location === undefined || seen.has(location)) return;
      seen.add(location);
      queue.push(location);
    };
    for (const name of Object.keys(manifest.dependencies)) {
      const workspace = from[name];
      if (workspace === undefined) throw new Error(`release lock: no workspace is named as declaring ${name}`);
      visit(resolve(workspace, name, false));
    }
    for (let location = queue.shift(); location !== undefined; location = queue.shift()) {
      for (const edge of edges(packages[location] as LockEntry)) {
        if (edge.optional && !withOptional) continue;
        visit(resolve(location, edge.name, edge.optional));
      }
    }
    return seen;
  };

  const required = reach(false);
  const all = reach(true);
  const released: Record<string, LockEntry> = {};
  const origin = new Map<string, string>();
  for (const location of [...all].sort()) {
    const target = releaseLocation(location);
    const before = origin.get(target);
    if (before !== undefined) {
      throw new Error(`release lock: ${before} and ${location} would both be installed at ${target}; the release tree cannot hold both`);
    }
    origin.set(target, location);
    const { dev: _dev, optional: _optional, devOptional: _devOptional, peer: _peer, ...entry } = packages[location] as LockEntry;
    released[target] = required.has(location) ? entry : { ...entry, optional: true };
  }

  const sorted = Object.fromEntries(Object.entries(released).sort(([a], [b]) => a.localeCompare(b, 'en')));
  return {
    name: manifest.name,
    version: manifest.version,
    lockfileVersion: 3,
    requires: true,
    packages: {
      '': {
        name: manifest.name,
        version: manifest.version,
        dependencies: manifest.dependencies,
        ...(manifest.engines ? { engines: manifest.engines } : {}),
      },
      ...sorted,
    },
  };
}
