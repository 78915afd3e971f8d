/**
 * A V8 CPU profile (`node --cpu-prof`) summed by package and by function (docs/performance.md, "How
 * the time was found"). The production build bundles the server's own code into dist/server/main.js;
 * its frames are named by their source file through the build's source map (main.js.map beside it),
 * so a function reads `token-service.ts:issueTokens`, not `main.js:4711`. Run it on the profiles a
 * bench run leaves:
 *
 *   NODE_OPTIONS="--cpu-prof --cpu-prof-dir=/tmp/prof" npm run bench:compare -- --against /tmp/before --production --operations refresh --rounds 1
 *   npm run profile -w bench -- /tmp/prof/CPU.*.cpuprofile [--top 30]
 *
 * A profile with no frame of a server (the load driver's, npm's) is skipped. Per profile it prints
 * the samples' share by package ("self": the time in the frame itself; `(own code)` is the bundle's,
 * `node:` Node's JavaScript, `(native)` V8's and C++'s frames such as the garbage collector and
 * system calls), then the top functions by self time and by inclusive time (each function counted
 * once per sample, however deep it recurses).
 */
import { readFileSync } from 'node:fs';
import { SourceMap, type SourceMapPayload } from 'node:module';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { positiveNumber, runMain, say } from './lib/cli.ts';
import { markdownTable } from './lib/report.ts';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
  columnNumber: number;
}

interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const { values: args, positionals: files } = parseArgs({ allowPositionals: true, options: { top: { type: 'string', default: '25' } } });

/** The source maps of bundles, by the bundle's URL (null: none beside it). */
const maps = new Map<string, SourceMap | null>();

function sourceMapOf(url: string): SourceMap | null {
  let map = maps.get(url);
  if (map === undefined) {
    try {
      map = new SourceMap(JSON.parse(readFileSync(`${fileURLToPath(url)}.map`, 'utf8')) as SourceMapPayload);
    } catch {
      map = null;
    }
    maps.set(url, map);
  }
  return map;
}

/** A frame's package and its name as printed: the source file of a bundle's frame, the package of a dependency's. */
function describe(frame: CallFrame): { pkg: string; name: string } {
  const fn = frame.functionName || '(anonymous)';
  if (!frame.url) return { pkg: '(native)', name: fn };
  if (frame.url.startsWith('node:')) return { pkg: 'node:', name: `${frame.url.slice(5)}:${fn}` };
  const dep = /node_modules\/((?:@[^/]+\/)?[^/]+)\/(.*)$/.exec(frame.url);
  if (dep) return { pkg: dep[1]!, name: `${dep[1]}/${dep[2]!.split('/').pop()}:${fn}` };
  const map = frame.url.startsWith('file:') ? sourceMapOf(frame.url) : null;
  const entry = map?.findEntry(frame.lineNumber, frame.columnNumber);
  if (entry && 'originalSource' in entry) {
    const source = entry.originalSource;
    const own = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(source);
    // A dependency bundled into main.js (the build inlines a few) is still its package's.
    if (own) return { pkg: own[1]!, name: `${own[1]}:${fn}` };
    return { pkg: '(own code)', name: `${source.replace(/^.*\/src\//, '')}:${fn}` };
  }
  return { pkg: frame.url.split('/').pop()!, name: `${frame.url.split('/').pop()}:${fn}` };
}

const share = (us: number, total: number) => `${((100 * us) / total).toFixed(1)}%`;

function top(totals: Map<string, number>, all: number, n: number): string[][] {
  return [...totals.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([name, us]) => [name, share(us, all), (us / 1000).toFixed(0)]);
}

function summarise(file: string, n: number): void {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const described = new Map(profile.nodes.map((node) => [node.id, describe(node.callFrame)]));
  if (![...described.values()].some((d) => d.pkg === '(own code)' || d.name.includes('fastify'))) return;
  const selfByPkg = new Map<string, number>();
  const selfByFn = new Map<string, number>();
  const totalByFn = new Map<string, number>();
  let all = 0;
  let idle = 0;
  profile.samples.forEach((id, i) => {
    const us = profile.timeDeltas[i] ?? 0;
    const d = described.get(id)!;
    if (d.name === '(idle)') {
      idle += us;
      return;
    }
    all += us;
    selfByPkg.set(d.pkg, (selfByPkg.get(d.pkg) ?? 0) + us);
    selfByFn.set(d.name, (selfByFn.get(d.name) ?? 0) + us);
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const name = described.get(at)!.name;
      if (seen.has(name) || !byId.has(at)) continue;
      seen.add(name);
      totalByFn.set(name, (totalByFn.get(name) ?? 0) + us);
    }
  });
  say(`\n## ${file}\n\n${(all / 1000).toFixed(0)} ms of samples on the main thread beside ${(idle / 1000).toFixed(0)} ms idle\n`);
  say(markdownTable(['package (self)', 'share', 'ms'], top(selfByPkg, all, n)));
  say('');
  say(markdownTable(['function (self)', 'share', 'ms'], top(selfByFn, all, n)));
  say('');
  say(markdownTable(['function (inclusive)', 'share', 'ms'], top(totalByFn, all, n)));
}

async function main(): Promise<number> {
  if (files.length === 0) throw new Error('name one or more .cpuprofile files');
  const n = Math.round(positiveNumber('top', args.top));
  for (const file of files) summarise(file, n);
  return 0;
}

runMain(main);
