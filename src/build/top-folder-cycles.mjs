// `npm run lint:deps`'s reporter (a dependency-cruiser reporter plugin): the rules' violations, as the default
// reporter lists them, and the cycles between the top-level units of src/ (each folder with all its subfolders, and
// each file directly in src/), which dependency-cruiser's folder scope does not see: it takes each deepest folder
// apart, so src/contract/document/ -> src/http/ -> src/contract/ would pass it. Type-only imports count
// (tsPreCompilationDeps in .dependency-cruiser.cjs). Exits non-zero on any violation or cycle.

/** The top-level unit of a path under src/: `src/<folder>/` or the file itself. */
const unitOf = (path) => /^src\/[^/]+\//.exec(path)?.[0] ?? path;

/** The strongly connected components of more than one unit (Tarjan), each sorted. */
function cycles(graph) {
  let index = 0;
  const stack = [];
  const seen = new Map();
  const out = [];
  const visit = (node) => {
    const entry = { index, low: index, onStack: true };
    index++;
    seen.set(node, entry);
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      const other = seen.get(next);
      if (!other) {
        visit(next);
        entry.low = Math.min(entry.low, seen.get(next).low);
      } else if (other.onStack) entry.low = Math.min(entry.low, other.index);
    }
    if (entry.low === entry.index) {
      const component = [];
      for (;;) {
        const member = stack.pop();
        seen.get(member).onStack = false;
        component.push(member);
        if (member === node) break;
      }
      if (component.length > 1) out.push(component.sort());
    }
  };
  for (const node of graph.keys()) if (!seen.has(node)) visit(node);
  return out;
}

/** One import per pair of units in the cycle, as evidence. */
function evidence(modules, component) {
  const members = new Set(component);
  const lines = [];
  for (const module of modules) {
    const from = unitOf(module.source);
    if (!members.has(from)) continue;
    for (const dependency of module.dependencies) {
      const to = unitOf(dependency.resolved);
      if (to !== from && members.has(to)) lines.push(`    ${module.source} -> ${dependency.resolved}`);
    }
  }
  return lines;
}

export default function report(results) {
  const lines = [];
  for (const violation of results.summary.violations) {
    lines.push(`  ${violation.rule.severity} ${violation.rule.name}: ${violation.from} -> ${violation.to}`);
  }
  const graph = new Map();
  for (const module of results.modules) {
    if (!module.source.startsWith('src/')) continue;
    const from = unitOf(module.source);
    if (!graph.has(from)) graph.set(from, new Set());
    for (const dependency of module.dependencies) {
      if (!dependency.resolved.startsWith('src/')) continue;
      const to = unitOf(dependency.resolved);
      if (to !== from) graph.get(from).add(to);
    }
  }
  const found = cycles(graph);
  for (const component of found) {
    lines.push(`  error no-top-folder-cycle: ${component.join(' <-> ')}`, ...evidence(results.modules, component));
  }
  const failed = lines.length > 0;
  const summary = `${results.summary.violations.length} rule violations, ${found.length} cycles between top-level units of src/ (${graph.size} units, ${results.summary.totalCruised} modules cruised)`;
  return { output: `${failed ? '✘' : '✔'} ${summary}\n${lines.join('\n')}${failed ? '\n' : ''}`, exitCode: failed ? 1 : 0 };
}
