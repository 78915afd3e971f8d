/**
 * What the production image and its compose file must hold (docs/operations.md "Container image"),
 * checked on their text where no Docker daemon runs (scripts/dockerfile.test.ts): each function
 * returns the findings, one sentence each, and an empty list when the file keeps the rules.
 */
import { parse } from 'yaml';

export interface Instruction {
  keyword: string;
  args: string;
}

export interface Stage {
  base: string;
  name: string | undefined;
  instructions: Instruction[];
}

/** The Dockerfile's stages, each with its instructions (continuation lines joined, comments dropped). */
export function stages(dockerfile: string): Stage[] {
  const logical = dockerfile
    .replace(/\\\r?\n/g, ' ')
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
  const found: Stage[] = [];
  for (const line of logical) {
    const [, keyword = '', args = ''] = /^(\S+)\s*(.*)$/.exec(line) ?? [];
    if (keyword.toUpperCase() === 'FROM') {
      const [base = '', as, name] = args.split(/\s+/);
      found.push({ base, name: as?.toUpperCase() === 'AS' ? name : undefined, instructions: [] });
    } else if (keyword.toUpperCase() !== 'ARG' || found.length > 0) {
      found.at(-1)?.instructions.push({ keyword: keyword.toUpperCase(), args });
    }
  }
  return found;
}

/** `--from=stage source… dest` of a COPY: its stage (undefined: the build context), sources and destination. */
function copyParts(args: string): { from: string | undefined; sources: string[]; dest: string } {
  const words = args.split(/\s+/);
  const from = words.find((w) => w.startsWith('--from='))?.slice('--from='.length);
  const paths = words.filter((w) => !w.startsWith('--'));
  return { from, sources: paths.slice(0, -1), dest: paths.at(-1) ?? '' };
}

/** The exec form of CMD (a JSON array), or undefined for the shell form. */
function execForm(args: string): string[] | undefined {
  try {
    const parsed: unknown = JSON.parse(args);
    return Array.isArray(parsed) && parsed.every((a) => typeof a === 'string') ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The Dockerfile's rules: Node 24 LTS bases; the runtime stage (the last) copies only the release
 * stage's directory, which copies only the build's dist/ (and the install script), and installs it
 * with scripts/release-install.sh; a non-root USER before CMD; a HEALTHCHECK of /api/health/live;
 * CMD in exec form running one of `builtFiles` (what scripts/build.ts writes) from the WORKDIR.
 */
export function dockerfileFindings(dockerfile: string, builtFiles: ReadonlySet<string>): string[] {
  const findings: string[] = [];
  const all = stages(dockerfile);
  const runtime = all.at(-1);
  if (runtime === undefined) return ['the Dockerfile has no FROM'];
  for (const stage of all) {
    if (!/^node:24-bookworm(-slim)?$/.test(stage.base)) findings.push(`stage ${stage.name ?? stage.base} is based on ${stage.base}, not node:24-bookworm(-slim)`);
  }
  const named = (name: string | undefined) => all.find((s) => s.name === name);
  const of = (stage: Stage, keyword: string) => stage.instructions.filter((i) => i.keyword === keyword);

  const release = named(of(runtime, 'COPY').map((c) => copyParts(c.args).from).find(Boolean));
  for (const copy of of(runtime, 'COPY').concat(of(runtime, 'ADD'))) {
    const { from, sources } = copyParts(copy.args);
    if (copy.keyword === 'ADD' || from === undefined || named(from) !== release || sources.some((s) => s.replace(/\/$/, '') !== '/release')) {
      findings.push(`the runtime stage copies ${copy.args}: only the release directory (COPY --from=<release stage> /release/ ./) may go in`);
    }
  }
  if (release === undefined) findings.push('the runtime stage copies no release stage');
  else {
    for (const copy of of(release, 'COPY')) {
      const { from, sources } = copyParts(copy.args);
      const allowed = sources.every((s) => /\/dist\/?$/.test(s) || s.endsWith('/scripts/release-install.sh'));
      if (from === undefined || !allowed) findings.push(`the release stage copies ${copy.args}: only the build's dist/ and scripts/release-install.sh`);
    }
    if (!of(release, 'RUN').some((r) => r.args.includes('release-install.sh'))) findings.push('the release stage does not install with scripts/release-install.sh');
  }

  const cmdAt = runtime.instructions.findIndex((i) => i.keyword === 'CMD');
  const userAt = runtime.instructions.findLastIndex((i) => i.keyword === 'USER');
  const user = runtime.instructions[userAt]?.args.split(':')[0];
  if (userAt < 0 || userAt > cmdAt || user === 'root' || user === '0') findings.push(`the runtime stage runs as ${user ?? 'root'}: set a non-root USER before CMD`);
  if (!of(runtime, 'HEALTHCHECK').some((h) => h.args.includes('/api/health/live'))) findings.push('no HEALTHCHECK calls /api/health/live');
  const cmd = cmdAt < 0 ? undefined : execForm(runtime.instructions[cmdAt]?.args ?? '');
  const file = cmd?.find((a) => !a.startsWith('-') && a !== 'node');
  if (cmd?.[0] !== 'node' || file === undefined || !builtFiles.has(file)) findings.push(`CMD ${JSON.stringify(cmd)} does not run a file the build writes with node (exec form)`);
  if (!of(runtime, 'WORKDIR').length || !of(runtime, 'COPY').every((c) => ['./', '.'].includes(copyParts(c.args).dest))) findings.push('the release is not copied into the WORKDIR that CMD runs from');
  if (!of(runtime, 'ENV').some((e) => /NODE_ENV=production/.test(e.args))) findings.push('the runtime stage does not set NODE_ENV=production');
  return findings;
}

/** Settings that must never be written into compose.yaml: each is read from the environment, `${NAME:?…}`. */
export const COMPOSE_SECRETS = ['LOOKUP_KEY', 'PAIRWISE_KEY', 'SIGNING_KEY_SECRET', 'RECAPTCHA_SECRET', 'POSTGRES_PASSWORD'];

interface ComposeService {
  image?: string;
  build?: unknown;
  command?: string[];
  environment?: Record<string, string>;
  depends_on?: Record<string, { condition?: string }>;
  healthcheck?: unknown;
}

/**
 * compose.yaml's rules: a PostgreSQL service with a volume and a health check; the migrations as a
 * one-shot service on the image; the service built from the Dockerfile, started once they completed,
 * with a health check; no secret written in (each an interpolation of the environment).
 */
export function composeFindings(composeYaml: string): string[] {
  const findings: string[] = [];
  const services = ((parse(composeYaml) as { services?: Record<string, ComposeService> } | null)?.services ?? {});
  const entries = Object.entries(services);
  const postgres = entries.find(([, s]) => /^postgres:1[67]\b/.test(s.image ?? ''));
  if (!postgres) findings.push('no postgres:16 or postgres:17 service');
  else if (!postgres[1].healthcheck) findings.push('the PostgreSQL service has no health check');
  const migrate = entries.find(([, s]) => s.command?.some((a) => a.endsWith('server/db-migrate.js')));
  if (!migrate) findings.push('no service runs server/db-migrate.js');
  const app = entries.find(([, s]) => s.build !== undefined && s.command === undefined);
  if (!app) findings.push('no service built from the Dockerfile runs the image\'s CMD');
  else {
    if (!migrate || app[1].depends_on?.[migrate[0]]?.condition !== 'service_completed_successfully') findings.push(`${app[0]} does not wait for the migrations to complete`);
    if (!app[1].healthcheck) findings.push(`${app[0]} has no health check`);
  }
  for (const [name, service] of entries) {
    for (const [key, value] of Object.entries(service.environment ?? {})) {
      const text = String(value);
      if (COMPOSE_SECRETS.includes(key) && !/^\$\{[A-Z_]+:\?[^}]*\}$/.test(text)) findings.push(`${name} writes ${key} into compose.yaml: read it from the environment, \${${key}:?…}`);
      if (/:\/\/[^/\s]*:(?!\$\{)[^@/\s]+@/.test(text)) findings.push(`${name}'s ${key} has a password written in its URL`);
    }
  }
  return findings;
}
