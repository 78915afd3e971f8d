import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import globals from 'globals';

const ROOT = import.meta.dirname;
const SERVER = 'apps/server/src';
const MODULES = `${SERVER}/modules`;
const WEB = 'apps/web/src';
const FEATURES = `${WEB}/features`;

/** The server's assembly: it builds the app from the modules (and the key rotation and admin commands); only it and test code may import it (docs/architecture.md). */
const ASSEMBLY = [`${SERVER}/app.ts`, `${SERVER}/main.ts`, `${SERVER}/keys-rotate.ts`, `${SERVER}/admin-cli.ts`, `${SERVER}/seed.ts`, `${SERVER}/test-support`];
const LAYERS = 'docs/architecture.md';

/** Resolves every import to a file, so that a zone holds however the import is spelt. */
const resolver = { 'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'] })] };

/**
 * Imports run one way (docs/architecture.md, docs/decisions/0022-import-boundaries.md): each zone
 * names the files (`target`) that may not import `from`.
 */
const boundaries = (zones) => ({
  plugins: { 'import-x': importX },
  settings: resolver,
  rules: { 'import-x/no-restricted-paths': ['error', { basePath: ROOT, zones }] },
});

const serverZones = [
  {
    target: `${SERVER}/modules`,
    from: ASSEMBLY,
    message: `A module never imports the assembly (app.ts, main.ts, seed.ts) or test support: ${LAYERS}.`,
  },
  {
    target: [`${SERVER}/http`, `${SERVER}/db`, `${SERVER}/ports`, `${SERVER}/lib`, `${SERVER}/config.ts`],
    from: [`${SERVER}/modules`, ...ASSEMBLY],
    message: `http/, db/, ports/, lib/ and config.ts sit below the modules and never import a module or the assembly; declare the small interface needed here and let the caller pass it in: ${LAYERS}.`,
  },
];

/** The folders (or files) directly in `dir`, read from the disk so that a new one is covered without an edit. */
const entries = (dir, keep = () => true) =>
  readdirSync(`${ROOT}/${dir}`, { withFileTypes: true })
    .filter(keep)
    .map((d) => d.name);

/**
 * The order of the server's modules, lowest first (docs/architecture.md, "The order, kept by lint";
 * docs/decisions/0028-module-order-kept-by-lint.md). A module's services and routes may import only
 * the modules of the tiers before its own; any module may import any repository, which the zone of
 * the repositories keeps below every flow. The first two tiers are the base modules: the OAuth client
 * registry, the outbox and its mail, the verification kernel. `oauth` and `oidc` share a tier and may
 * import each other: one context. A new folder in modules/ is not linted until it is placed here.
 */
const MODULE_TIERS = [
  ['audit', 'clients', 'notifications'],
  ['verification'],
  ['account', 'client-admin', 'member-flows', 'open-signup'],
  ['oauth', 'oidc'],
  ['activity', 'cards', 'direct-login', 'fresh-proof', 'login', 'points', 'profile', 'sso'],
  ['partner-demo', 'sessions', 'signup', 'top', 'upgrade'],
  ['passkeys'],
  ['account-change', 'recover'],
  ['link', 'not-me', 'operators'],
  ['support'],
];
const ONE_CONTEXT = ['oauth', 'oidc'];
/** The base modules, the first two tiers: they import no feature module at all, not even its repositories. */
const BASE_MODULES = MODULE_TIERS.slice(0, 2).flat();

const placed = MODULE_TIERS.flat();
const unplaced = entries(MODULES, (d) => d.isDirectory()).filter((name) => !placed.includes(name));
const missing = placed.filter((name) => !entries(MODULES, (d) => d.isDirectory()).includes(name));
if (unplaced.length || missing.length) {
  throw new Error(`eslint.config.js: MODULE_TIERS must name each folder of ${MODULES} once (not placed: ${unplaced.join(', ') || '-'}; gone: ${missing.join(', ') || '-'}).`);
}

// A repository holds SQL: `*-repo.ts` (and direct-login's `repo.ts`) anywhere, and `db/`.
const REPOSITORIES = [`${SERVER}/**/*-repo.ts`, `${SERVER}/**/repo.ts`, `${SERVER}/db/**`];

const orderZones = [
  {
    target: REPOSITORIES,
    from: [`${SERVER}/**`],
    // Glob exceptions are matched as written, not from basePath: give them whole.
    except: [...REPOSITORIES, `${SERVER}/lib/**`].map((glob) => `${ROOT}/${glob}`),
    message: `A repository imports only db/, lib/, the contracts and other repositories; what calls a service belongs in a service file: ${LAYERS}.`,
  },
  {
    target: MODULES,
    from: `${MODULES}/**/routes.ts`,
    message: `Only the assembly imports a routes.ts; what a route file and a service share goes in the service (or a small file beside it): ${LAYERS}.`,
  },
  ...MODULE_TIERS.flatMap((tier, i) =>
    tier.map((name) => ({
      target: `${MODULES}/${name}`,
      from: MODULE_TIERS.slice(i)
        .flat()
        .filter((other) => other !== name && !(ONE_CONTEXT.includes(name) && ONE_CONTEXT.includes(other)))
        .map((other) => `${MODULES}/${other}/**`),
      except: REPOSITORIES.map((glob) => `${ROOT}/${glob}`),
      message: `modules/${name} imports only the modules of the tiers before its own in MODULE_TIERS (and any repository); move the shared piece down, or pass it in from the assembly: ${LAYERS}.`,
    })),
  ).filter((zone) => zone.from.length > 0),
  ...BASE_MODULES.map((base) => ({
    target: `${MODULES}/${base}`,
    from: MODULES,
    except: BASE_MODULES.map((b) => `./${b}`),
    message: `The kernel, notifications and the client registry import no feature module, not even its repositories; the feature calls them, never the other way: ${LAYERS}.`,
  })),
];

const contractZones = [
  { target: 'packages/contracts', from: ['apps', 'e2e', 'bench'], message: `The contracts are imported by both apps and import neither: ${LAYERS}.` },
];

// A web feature never imports another feature; what two share goes to lib/ or ui/.
const featureZones = entries(FEATURES, (d) => d.isDirectory()).map((name) => ({
  target: `${FEATURES}/${name}`,
  from: FEATURES,
  except: [`./${name}`],
  message: `A web feature never imports another feature; share through lib/ or ui/: ${LAYERS}.`,
}));

// The web's lib/ is the bottom of the SPA: it imports nothing else of it (ui/, the features, app/, main.tsx).
const webLibZones = [
  {
    target: `${WEB}/lib`,
    from: entries(WEB, (d) => d.name !== 'lib').map((name) => `${WEB}/${name}`),
    message: `The web's lib/ never imports ui/, a feature or app/; move what both need down into lib/: ${LAYERS}.`,
  },
];

/** No two files import each other, however far round (type imports aside); test code is exempt as above. */
const noCycle = {
  plugins: { 'import-x': importX },
  // The rule follows imports into files it parses itself: TypeScript files, with typescript-eslint's parser.
  settings: { ...resolver, 'import-x/extensions': ['.ts', '.tsx'], 'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] } },
  rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
};

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'data/**', 'docs/screens/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': ['error', { allow: ['warn', 'error'] }],
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}', 'apps/admin/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  {
    files: [`${SERVER}/**/*.{ts,js,mjs}`],
    // Test code is assembly: a test may build the app, seed demo data and reach into any module.
    ignores: ['**/*.test.ts'],
    ...boundaries([...serverZones, ...orderZones]),
  },
  { files: ['packages/contracts/**/*.ts'], ...boundaries(contractZones) },
  { files: [`${FEATURES}/**/*.{ts,tsx}`], ...boundaries(featureZones) },
  { files: [`${WEB}/lib/**/*.{ts,tsx}`], ignores: ['**/*.test.{ts,tsx}'], ...boundaries(webLibZones) },
  { files: [`${SERVER}/**/*.ts`, `${WEB}/**/*.{ts,tsx}`], ignores: ['**/*.test.{ts,tsx}'], ...noCycle },
  {
    // The black-box suites and the benchmark reach the server through its test harness only
    // (`@sso/server/test-support`, `/vitest`, `/internals`: docs/decisions/0029-one-test-harness.md).
    files: ['e2e/**/*.ts', 'bench/**/*.{ts,mjs}'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ regex: '(^|/)apps/server/', message: 'Import the server through @sso/server/test-support (or its /vitest and /internals entries), never its sources.' }] },
      ],
    },
  },
);
