/**
 * Lists the import cycles between the server's modules (apps/server/src/modules/<m>) and between the
 * web's top folders and features (apps/web/src/<dir>, apps/web/src/features/<f>), test code aside
 * (docs/architecture.md, "The order, kept by lint"). ESLint keeps both orders (import-x/no-cycle the
 * files', MODULE_TIERS the server modules'); this shows the picture: which modules reach each other,
 * and by which files. With --flows the server's only circle is oauth <-> oidc, one context.
 *
 *   node --import tsx scripts/module-cycles.ts            the cycles, one group a paragraph
 *   node --import tsx scripts/module-cycles.ts --edges    and every file import inside each group
 *   node --import tsx scripts/module-cycles.ts --flows    leaving out the imports of another module's
 *                                                         repositories (`*-repo.ts`, `repo.ts`), which
 *                                                         lint keeps below every flow: the cycles of the
 *                                                         services and routes alone
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

const ROOT = resolve(import.meta.dirname, '..');

interface Side {
  root: string;
  /** The unit a file belongs to: a module, a feature, or a top folder. */
  unit: (top: string, name: string) => string;
}

const SIDES: Side[] = [
  { root: 'apps/server/src', unit: (top, name) => (top === 'modules' ? `modules/${name}` : top.replace(/\.ts$/, '')) },
  { root: 'apps/web/src', unit: (top, name) => (top === 'features' ? `features/${name}` : top.replace(/\.tsx?$/, '')) },
];

const isTest = (file: string) => /\.test\.tsx?$/.test(file);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) && !isTest(name) ? [path] : [];
  });
}

function resolveImport(from: string, spec: string): string | undefined {
  if (!spec.startsWith('.')) return undefined;
  const base = resolve(dirname(from), spec);
  return [base, base.replace(/\.js$/, '.ts'), `${base}.ts`, `${base}.tsx`, join(base, 'index.ts')].find((p) => existsSync(p) && statSync(p).isFile());
}

/** Tarjan's strongly connected components of more than one node. */
function cycles(graph: Map<string, Set<string>>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const found: string[][] = [];
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (stack.includes(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const group: string[] = [];
    let w: string;
    do group.push((w = stack.pop()!));
    while (w !== v);
    if (group.length > 1) found.push(group.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

const showEdges = process.argv.includes('--edges');
const flowsOnly = process.argv.includes('--flows');
const isRepository = (file: string) => /(^|\/|-)repo\.ts$/.test(file);
let total = 0;
for (const side of SIDES) {
  const root = join(ROOT, side.root);
  const unitOf = (file: string) => {
    const [top = '', name = ''] = relative(root, file).split('/');
    return side.unit(top, name);
  };
  const graph = new Map<string, Set<string>>();
  const edges = new Map<string, string[]>();
  for (const file of sourceFiles(root)) {
    const from = unitOf(file);
    for (const { fileName } of ts.preProcessFile(readFileSync(file, 'utf8'), true, true).importedFiles) {
      const target = resolveImport(file, fileName);
      if (!target || isTest(target) || !target.startsWith(root) || (flowsOnly && isRepository(target))) continue;
      const to = unitOf(target);
      if (to === from) continue;
      if (!graph.has(from)) graph.set(from, new Set());
      graph.get(from)!.add(to);
      const key = `${from} -> ${to}`;
      edges.set(key, [...(edges.get(key) ?? []), `${relative(root, file)} -> ${relative(root, target)}`]);
    }
  }
  for (const group of cycles(graph)) {
    total++;
    process.stdout.write(`${side.root}: ${group.length} units import each other in a circle: ${group.join(', ')}\n`);
    if (!showEdges) continue;
    for (const [key, files] of edges) {
      const [from = '', to = ''] = key.split(' -> ');
      if (group.includes(from) && group.includes(to)) process.stdout.write(`  ${key}\n${files.map((f) => `      ${f}\n`).join('')}`);
    }
  }
}
if (total === 0) process.stdout.write('No import cycle between modules or features.\n');
