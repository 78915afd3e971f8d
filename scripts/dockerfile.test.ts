import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { composeFindings, dockerfileFindings, stages } from './image-rules.ts';

const read = (path: string) => readFileSync(new URL(`../${path}`, import.meta.url), 'utf8');
const DOCKERFILE = read('Dockerfile');
const COMPOSE = read('compose.yaml');

/** The files scripts/build.ts bundles into dist/ (`bundle('src/…', 'server/….js')`). */
const BUILT = new Set([...read('scripts/build.ts').matchAll(/bundle\('src\/[^']+', '([^']+)'\)/g)].map((m) => m[1] as string));

describe('the production image (docs/operations.md "Container image"), where no Docker daemon runs', () => {
  it('reads what the build writes', () => {
    expect(BUILT).toContain('server/main.js');
    expect(BUILT).toContain('server/db-migrate.js');
  });

  it('the Dockerfile: Node 24 bases, only the release in the runtime stage, non-root, a health check of liveness, CMD on the bundle', () => {
    expect(dockerfileFindings(DOCKERFILE, BUILT)).toEqual([]);
    const runtime = stages(DOCKERFILE).at(-1);
    expect(runtime?.base).toMatch(/^node:24-/);
    expect(runtime?.instructions.find((i) => i.keyword === 'CMD')?.args).toBe('["node", "--enable-source-maps", "server/main.js"]');
    expect(runtime?.instructions.filter((i) => i.keyword === 'EXPOSE').map((i) => i.args)).toEqual(['8080 9464']);
  });

  it('finds each broken rule', () => {
    const broken = (from: string | RegExp, to: string) => {
      const changed = DOCKERFILE.replace(from, to);
      expect(changed).not.toBe(DOCKERFILE);
      return dockerfileFindings(changed, BUILT);
    };
    expect(broken('FROM node:24-bookworm-slim AS runtime', 'FROM node:20-bookworm-slim AS runtime')).toEqual([expect.stringMatching(/stage runtime is based on node:20/)]);
    expect(broken(/^USER node$/m, '')).toEqual([expect.stringMatching(/runs as root/)]);
    expect(broken(/^USER node$/m, 'USER root')).toEqual([expect.stringMatching(/runs as root/)]);
    expect(broken(/^CMD .*$/m, 'CMD ["node", "server/missing.js"]\nUSER node')).toEqual(
      [expect.stringMatching(/runs as node: set a non-root USER before CMD/), expect.stringMatching(/does not run a file the build writes/)],
    );
    expect(broken('COPY --from=release /release/ ./', 'COPY --from=release /release/ ./\nCOPY . /app/src')).toEqual([
      expect.stringMatching(/the runtime stage copies \. \/app\/src/),
      'the release is not copied into the WORKDIR that CMD runs from',
    ]);
    expect(broken('COPY --from=release /release/ ./', 'COPY --from=build /src/ ./')).toEqual(expect.arrayContaining([expect.stringMatching(/the runtime stage copies --from=build \/src\/ \.\/: only the release directory/)]));
    expect(broken('COPY --from=build /src/dist/ ./', 'COPY --from=build /src/ ./')).toEqual([expect.stringMatching(/the release stage copies --from=build \/src\/ \.\//)]);
    expect(broken('/api/health/live', '/api/health')).toEqual([expect.stringMatching(/HEALTHCHECK/)]);
    expect(broken(/^ENV NODE_ENV=production/m, 'ENV NODE_ENV=development')).toEqual([expect.stringMatching(/NODE_ENV=production/)]);
  });

  it('the production smoke installs the release with the script the Dockerfile runs', () => {
    const release = stages(DOCKERFILE).find((s) => s.name === 'release');
    expect(release?.instructions.some((i) => i.keyword === 'RUN' && i.args.includes('release-install.sh'))).toBe(true);
    expect(read('scripts/production-smoke.sh')).toMatch(/^\s*SQLITE=0 .*scripts\/release-install\.sh/m);
    expect(read('.dockerignore')).toMatch(/^\*\*\/node_modules$/m);
  });

  it('compose.yaml: PostgreSQL, the migrations before the service, health checks, no secret written in', () => {
    expect(composeFindings(COMPOSE)).toEqual([]);
    expect(composeFindings(COMPOSE.replace('${SIGNING_KEY_SECRET:?set SIGNING_KEY_SECRET (32+ random characters)}', 'a-signing-key-secret-of-32-characters'))).toEqual(
      [expect.stringMatching(/writes SIGNING_KEY_SECRET into compose.yaml/), expect.stringMatching(/writes SIGNING_KEY_SECRET into compose.yaml/)],
    );
    expect(composeFindings(COMPOSE.replace('postgres://sso:${POSTGRES_PASSWORD:?set POSTGRES_PASSWORD}@', 'postgres://sso:hunter2@'))).toEqual([
      expect.stringMatching(/DATABASE_URL has a password written in its URL/),
      expect.stringMatching(/DATABASE_URL has a password written in its URL/),
    ]);
    expect(composeFindings(COMPOSE.replace('service_completed_successfully', 'service_started'))).toEqual([expect.stringMatching(/does not wait for the migrations/)]);
    expect(composeFindings(COMPOSE.replace('image: postgres:17', 'image: mysql:8'))).toEqual(['no postgres:16 or postgres:17 service']);
  });
});
