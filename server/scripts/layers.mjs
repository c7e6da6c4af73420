// The server's layer check (`npm run lint:layers -w server`, part of `npm run lint`):
// dependency-cruiser applies the rules of .dependency-cruiser.cjs file by file, then this counts the
// imports between modules — a folder of infra/, domain/ or http/routes/, http/plugins, http/guards,
// cli, lib, testing, or a file at the top of src — and fails on any cycle among them.
// `--src <dir>` checks another tree laid out the same way (test/layers.test.ts plants violations).
import { cruise } from 'dependency-cruiser';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const at = process.argv.indexOf('--src');
const src = at > 0 ? path.resolve(process.argv[at + 1]) : path.join(serverDir, 'src');
const quiet = process.argv.includes('--quiet');
process.chdir(path.dirname(src));
const { default: rules } = await import(path.join(serverDir, '.dependency-cruiser.cjs'));
const base = path.basename(src);
const forbidden = rules.forbidden.map((rule) =>
  JSON.parse(JSON.stringify(rule).replaceAll('^src/', `^${base}/`)),
);
const result = await cruise([base], {
  ...rules.options,
  ruleSet: { forbidden },
  validate: true,
  tsConfig: { fileName: path.join(serverDir, 'tsconfig.json') },
});
const { output } = result;

function moduleOf(file) {
  const parts = file.slice(base.length + 1).split('/');
  if (parts.length === 1) return parts[0].replace(/\.ts$/, '');
  if ((parts[0] === 'infra' || parts[0] === 'domain') && parts.length > 2)
    return `${parts[0]}/${parts[1]}`;
  if (parts[0] === 'http' && parts[1] === 'routes')
    return parts.length > 3
      ? `http/routes/${parts[2]}`
      : `http/routes/${parts[2].replace(/\.ts$/, '')}`;
  if (parts[0] === 'http') return `http/${parts[1].replace(/\.ts$/, '')}`;
  return parts[0];
}

const edges = new Map();
for (const m of output.modules) {
  if (!m.source.startsWith(`${base}/`) || m.source.endsWith('.test.ts')) continue;
  for (const d of m.dependencies) {
    if (!d.resolved.startsWith(`${base}/`)) continue;
    const [a, b] = [moduleOf(m.source), moduleOf(d.resolved)];
    if (a === b) continue;
    if (!edges.has(a)) edges.set(a, new Set());
    edges.get(a).add(b);
  }
}
// Tarjan's strongly connected components: a component of more than one module is a cycle.
const index = new Map();
const low = new Map();
const stack = [];
const onStack = new Set();
const cycles = [];
let counter = 0;
function visit(v) {
  index.set(v, counter);
  low.set(v, counter++);
  stack.push(v);
  onStack.add(v);
  for (const w of edges.get(v) ?? []) {
    if (!index.has(w)) {
      visit(w);
      low.set(v, Math.min(low.get(v), low.get(w)));
    } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
  }
  if (low.get(v) === index.get(v)) {
    const component = [];
    let w;
    do {
      w = stack.pop();
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1) cycles.push(component.sort());
  }
}
const modules = new Set([...edges.keys(), ...[...edges.values()].flatMap((s) => [...s])]);
for (const v of modules) if (!index.has(v)) visit(v);

const violations = output.summary.violations;
const imports = [...edges.values()].reduce((n, s) => n + s.size, 0);
if (!quiet)
  console.log(
    `server layers: ${modules.size} modules, ${imports} imports between them, ${cycles.length} cycles, ${violations.length} rule violations`,
  );
for (const v of violations)
  console.error(
    `  ${v.rule.name}: ${v.from} → ${v.to}${v.cycle ? ` (cycle ${v.cycle.map((c) => c.name ?? c).join(' → ')})` : ''}`,
  );
for (const c of cycles) console.error(`  module cycle: ${c.join(', ')}`);
process.exitCode = violations.length > 0 || cycles.length > 0 ? 1 : 0;
