import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import globals from 'globals';

const ROOT = import.meta.dirname;
const SERVER = 'apps/server/src';
const FEATURES = 'apps/web/src/features';

/** The server's assembly: it builds the app from the modules (and the key rotation command); only it and test code may import it (docs/architecture.md). */
const ASSEMBLY = [`${SERVER}/app.ts`, `${SERVER}/main.ts`, `${SERVER}/keys-rotate.ts`, `${SERVER}/seed.ts`, `${SERVER}/test-support`];
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

const contractZones = [
  { target: 'packages/contracts', from: ['apps', 'e2e', 'bench'], message: `The contracts are imported by both apps and import neither: ${LAYERS}.` },
];

// A web feature never imports another feature; what two share goes to lib/ or ui/.
const featureZones = readdirSync(`${ROOT}/${FEATURES}`, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => ({
    target: `${FEATURES}/${d.name}`,
    from: FEATURES,
    except: [`./${d.name}`],
    message: `A web feature never imports another feature; share through lib/ or ui/: ${LAYERS}.`,
  }));

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
    files: ['apps/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  {
    files: [`${SERVER}/**/*.{ts,js,mjs}`],
    // Test code is assembly: a test may build the app, seed demo data and reach into any module.
    ignores: ['**/*.test.ts'],
    ...boundaries(serverZones),
  },
  { files: ['packages/contracts/**/*.ts'], ...boundaries(contractZones) },
  { files: [`${FEATURES}/**/*.{ts,tsx}`], ...boundaries(featureZones) },
  {
    // The black-box suites and the benchmark reach the server through its test harness only
    // (`@sso/server/test-support`, `/vitest`, `/internals`: docs/decisions/0028-one-test-harness.md).
    files: ['e2e/**/*.ts', 'bench/**/*.{ts,mjs}'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ regex: '(^|/)apps/server/', message: 'Import the server through @sso/server/test-support (or its /vitest and /internals entries), never its sources.' }] },
      ],
    },
  },
);
