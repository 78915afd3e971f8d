/**
 * The production build's server half (`npm run build`, after the SPA's `npm run build:web`;
 * decision 0023). Writes `dist/`, a directory that runs on its own:
 *
 *   dist/server/main.js (+ .map)          the server, one ES module; @sso/contracts inlined
 *   dist/server/keys-rotate.js (+ .map)   the signing key rotation (`npm run keys:rotate` in the repository)
 *   dist/server/admin-cli.js (+ .map)     the operators' command (`npm run admin -- …` here and in dist/)
 *   dist/server/db-migrate.js (+ .map)    applies pending migrations and exits (`npm run db:migrate` here and in dist/)
 *   dist/server/db-backup.js (+ .map)     an online backup of the database, checked (`npm run db:backup -- FILE` here and in dist/)
 *   dist/server/sqlite-checkpointer.mjs   the SQLite checkpointer's worker (db/sqlite.ts loads it by URL)
 *   dist/server/jwt-sign-worker.mjs       the JWT signing worker (modules/oidc/jwt-signer.ts loads it by URL)
 *   dist/config/                          the client registry and the simulators' demo data (config.ts defaults)
 *   dist/web/                             the built SPA (config.ts's WEB_DIST default)
 *   dist/admin/                           the built operator console (config.ts's ADMIN_DIST default)
 *   dist/package.json, package-lock.json  exactly the server's npm dependencies, at the root lock's versions
 *   dist/sbom.cdx.json                    the release's CycloneDX SBOM (`npm sbom`), its production dependencies
 *
 * Every npm package stays external and is installed in dist by `npm ci --omit=dev`
 * (scripts/release-install.sh, as the Dockerfile does). A package outside the server's
 * `dependencies` may only be loaded by import() where its feature is configured, and stays out of
 * dist/package.json: the development mail sink's (devDependencies) and better-sqlite3, an optional
 * peer that only a SQLite deployment installs (docs/operations.md "Container image").
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type BuildOptions, type Metafile, type Plugin } from 'esbuild';
import { releaseLock, type Lockfile, type ReleaseManifest } from './release-lock.ts';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const OUT = join(ROOT, 'dist');
const SERVER = 'apps/server';

interface PackageJson {
  name: string;
  version: string;
  engines?: Record<string, string>;
  workspaces?: string[];
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
  /** npm's approvals of install scripts (`npm install-scripts`): the native builds, such as better-sqlite3's. */
  allowScripts?: Record<string, boolean>;
}

const readJson = <T>(path: string): T => JSON.parse(readFileSync(join(ROOT, path), 'utf8')) as T;

/** `@scope/name/sub/path` -> `@scope/name`, `name/sub` -> `name`. */
const packageName = (specifier: string) => specifier.split('/').slice(0, specifier.startsWith('@') ? 2 : 1).join('/');

const rootPackage = readJson<PackageJson>('package.json');
const workspaceDirs = new Map((rootPackage.workspaces ?? []).map((dir) => [readJson<PackageJson>(`${dir}/package.json`).name, dir]));

/**
 * The npm packages the server may import at run time, each with its range and the workspace that
 * declares it: the server's own dependencies, and those of the workspace packages it inlines.
 */
function runtimeDependencies(): Map<string, { range: string; workspace: string }> {
  const found = new Map<string, { range: string; workspace: string }>();
  const add = (workspace: string) => {
    for (const [name, range] of Object.entries(readJson<PackageJson>(`${workspace}/package.json`).dependencies ?? {})) {
      const inlined = workspaceDirs.get(name);
      if (inlined !== undefined) {
        add(inlined);
        continue;
      }
      const before = found.get(name);
      if (before !== undefined && before.range !== range) {
        throw new Error(`${name} is ${before.range} in ${before.workspace} but ${range} in ${workspace}: give both the same range`);
      }
      found.set(name, before ?? { range, workspace });
    }
  };
  add(SERVER);
  return found;
}

const serverPackage = readJson<PackageJson>(`${SERVER}/package.json`);

/** The server's optional peers (better-sqlite3): a deployment installs them only where it uses them. */
const optionalPeers = Object.keys(serverPackage.peerDependencies ?? {}).filter((name) => serverPackage.peerDependenciesMeta?.[name]?.optional === true);

/**
 * Packages the server may load by import() only, never install in dist/: its optional peers, and its
 * development dependencies that a development feature loads (the mail sink's smtp-server, mailparser).
 */
const loadedOnlyWhereConfigured = new Set([...optionalPeers, ...Object.keys(serverPackage.devDependencies ?? {})]);

/**
 * Workspace packages are bundled; every npm package stays an import, and must be one the server
 * declares: a dependency, or one of loadedOnlyWhereConfigured by import() (a static import would load
 * it at every start, and the release does not install it).
 */
function externals(allowed: ReadonlySet<string>): Plugin {
  return {
    name: 'runtime-dependencies',
    setup(b) {
      b.onResolve({ filter: /^[^./]/ }, (args) => {
        if (isBuiltin(args.path)) return { path: args.path, external: true };
        const name = packageName(args.path);
        if (workspaceDirs.has(name)) return undefined;
        if (allowed.has(name)) return { path: args.path, external: true };
        if (loadedOnlyWhereConfigured.has(name)) {
          if (args.kind === 'dynamic-import') return { path: args.path, external: true };
          return { errors: [{ text: `${name} is not a dependency of ${SERVER}, so it may only be loaded by import() where its feature is configured, not by ${args.kind} (${relative(ROOT, args.importer)})` }] };
        }
        return { errors: [{ text: `${name} is imported but is not a dependency of ${SERVER} (nor of a workspace package it inlines): add it to ${SERVER}/package.json` }] };
      });
    },
  };
}

/** The npm packages a bundle imports (by import statement or import()). */
const importedPackages = (metafile: Metafile) =>
  Object.values(metafile.outputs).flatMap((output) => output.imports.filter((i) => i.external && !isBuiltin(i.path)).map((i) => packageName(i.path)));

/** The version of `name` that the root lock pins. */
const lockedVersion = (lock: Lockfile, name: string): string => {
  const version = lock.packages[`node_modules/${name}`]?.version;
  if (version === undefined) throw new Error(`${name} is not in package-lock.json: run npm install`);
  return version;
};

async function bundleServer(allowed: ReadonlySet<string>, sqliteDriverVersion: string): Promise<Set<string>> {
  const common: BuildOptions = {
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // Stack traces point into the TypeScript sources under `node --enable-source-maps`; the map
    // lies beside the server, never under the SPA's directory, so nothing serves it.
    sourcemap: 'linked',
    sourcesContent: false,
    // Bundling renames clashing top-level names: keep the names that error classes and logs show.
    keepNames: true,
    // config.ts finds config/ and the SPA beside the bundle rather than in the repository.
    // db/sqlite.ts names the version to install when a SQLite deployment lacks its driver.
    define: { BUILT_LAYOUT: 'true', SQLITE_DRIVER_VERSION: JSON.stringify(sqliteDriverVersion) },
    logLevel: 'warning',
    plugins: [externals(allowed)],
  };
  const bundle = async (entry: string, outfile: string) =>
    importedPackages((await build({ ...common, entryPoints: [join(ROOT, SERVER, entry)], outfile: join(OUT, outfile), metafile: true })).metafile);
  const server = await bundle('src/main.ts', 'server/main.js');
  // The signing key rotation (docs/operations.md, "Signing keys"): `node server/keys-rotate.js` beside the server.
  const rotate = await bundle('src/keys-rotate.ts', 'server/keys-rotate.js');
  // The operators' command (docs/operations.md, "Operators"): `npm run admin -- …` in dist/, as in the repository.
  const admin = await bundle('src/admin-cli.ts', 'server/admin-cli.js');
  // The migrations alone, before a release's nodes roll (docs/operations.md, "Upgrading"): `npm run db:migrate` in dist/ too.
  const migrate = await bundle('src/db-migrate.ts', 'server/db-migrate.js');
  // A checked copy of the database while the nodes run (docs/operations.md, "Backups and restore"): `npm run db:backup -- FILE` in dist/ too.
  const backup = await bundle('src/db-backup.ts', 'server/db-backup.js');
  // Worker threads, each loaded by URL beside the module that starts it (db/sqlite.ts, modules/oidc/jwt-signer.ts):
  // in the bundle, that module is main.js, so each lands beside it.
  const checkpointer = await bundle('src/db/sqlite-checkpointer.mjs', 'server/sqlite-checkpointer.mjs');
  const signer = await bundle('src/modules/oidc/jwt-sign-worker.mjs', 'server/jwt-sign-worker.mjs');
  return new Set([...server, ...rotate, ...admin, ...migrate, ...backup, ...checkpointer, ...signer]);
}

async function main() {
  const webDist = join(ROOT, 'apps/web/dist');
  if (!existsSync(join(webDist, 'index.html'))) throw new Error('apps/web/dist has no index.html: run `npm run build:web` first (`npm run build` does both)');
  const adminDist = join(ROOT, 'apps/admin/dist');
  if (!existsSync(join(adminDist, 'index.html'))) throw new Error('apps/admin/dist has no index.html: run `npm run build:admin` first (`npm run build:web` and `npm run build` do it)');

  const declared = runtimeDependencies();
  const rootLock = readJson<Lockfile>('package-lock.json');
  rmSync(OUT, { recursive: true, force: true });
  mkdirSync(OUT, { recursive: true });
  const bundled = await bundleServer(new Set(declared.keys()), lockedVersion(rootLock, 'better-sqlite3'));
  const imported = new Set([...bundled].filter((name) => declared.has(name)));
  const unused = [...declared.keys()].filter((name) => !imported.has(name));
  if (unused.length > 0) throw new Error(`declared but never imported by the server: ${unused.join(', ')}; remove them from its dependencies`);

  cpSync(join(ROOT, 'config'), join(OUT, 'config'), { recursive: true });
  // Vite's manifest (.vite/) is read by the benchmark from apps/web/dist, never by the server.
  cpSync(webDist, join(OUT, 'web'), { recursive: true, filter: (path) => !relative(webDist, path).startsWith('.vite') });
  cpSync(adminDist, join(OUT, 'admin'), { recursive: true, filter: (path) => !relative(adminDist, path).startsWith('.vite') });

  const names = [...imported].sort();
  const manifest: ReleaseManifest & { private: true; type: 'module'; scripts: Record<string, string> } = {
    name: `${rootPackage.name}-server`,
    version: rootPackage.version,
    private: true,
    type: 'module',
    ...(rootPackage.engines ? { engines: rootPackage.engines } : {}),
    scripts: { start: 'node --enable-source-maps server/main.js', admin: 'node --enable-source-maps server/admin-cli.js',
      'db:migrate': 'node --enable-source-maps server/db-migrate.js',
      'db:backup': 'node --enable-source-maps server/db-backup.js',
    },
    dependencies: Object.fromEntries(names.map((name) => [name, declared.get(name)?.range as string])),
  };
  const lock = releaseLock(
    rootLock,
    manifest,
    Object.fromEntries(names.map((name) => [name, declared.get(name)?.workspace as string])),
  );
  // The root's approvals of install scripts, for the packages the release installs.
  const installed = new Set(Object.keys(lock.packages).map((location) => location.slice(location.lastIndexOf('node_modules/') + 'node_modules/'.length)));
  const allowScripts = Object.fromEntries(Object.entries(rootPackage.allowScripts ?? {}).filter(([name]) => installed.has(name) || optionalPeers.includes(name)));
  // The optional peers at the versions the tests ran, for scripts/release-install.sh to add where used (SQLITE=1).
  // Not npm's peerDependencies: npm then will not install the package by name into the release.
  const optionalPackages = Object.fromEntries(optionalPeers.map((name) => [name, lockedVersion(rootLock, name)]));
  writeFileSync(join(OUT, 'package.json'), `${JSON.stringify({ ...manifest, optionalPackages, allowScripts }, null, 2)}\n`);
  writeFileSync(join(OUT, 'package-lock.json'), `${JSON.stringify(lock, null, 2)}\n`);
  // The SBOM of what `npm ci --omit=dev` installs there, read from the release's lock alone (no network).
  const sbom = execFileSync('npm', ['sbom', '--sbom-format', 'cyclonedx', '--omit', 'dev', '--package-lock-only', '--offline'], { cwd: OUT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  writeFileSync(join(OUT, 'sbom.cdx.json'), sbom);
  process.stdout.write(
    `built ${relative(ROOT, OUT)}/: server/main.js, config/, web/, admin/, package.json with ${names.length} dependencies (${Object.keys(lock.packages).length - 1} packages in its lock), sbom.cdx.json\n`,
  );
}

main().catch((e: unknown) => {
  console.error(`build failed: ${e instanceof Error ? e.message : String(e)}`);
  process.exit(1);
});
