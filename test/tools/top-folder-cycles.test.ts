// `npm run lint:deps`'s reporter (src/build/top-folder-cycles.mjs): the cycles between top-level units of src/ that
// dependency-cruiser's folder scope misses, fed the result dependency-cruiser hands a reporter plugin.
import { describe, expect, it } from 'vitest';
import report, { type CruiseResult } from '../../src/build/top-folder-cycles.mjs';

type Violation = CruiseResult['summary']['violations'][number];

/** A cruise result of these imports (`from -> to`, one per entry), with the given rule violations. */
function cruised(imports: [string, string][], violations: Violation[] = []): CruiseResult {
  const modules = new Map<string, string[]>();
  for (const [from, to] of imports) {
    modules.set(from, [...(modules.get(from) ?? []), to]);
    if (!modules.has(to)) modules.set(to, []);
  }
  return {
    modules: [...modules].map(([source, targets]) => ({ source, dependencies: targets.map((resolved) => ({ resolved })) })),
    summary: { violations, totalCruised: modules.size },
  };
}

describe('cycles between the top-level units of src/', () => {
  it('When a subfolder imports a folder that imports the subfolder’s parent back, then the cycle is named with the imports that make it, and the exit code is 1', () => {
    const { output, exitCode } = report(
      cruised([
        ['src/contract/document/generated.ts', 'src/http/errors.ts'],
        ['src/http/errors.ts', 'src/contract/facts.ts'],
        ['src/http/errors.ts', 'src/store/store.ts'],
      ]),
    );
    expect(exitCode).toBe(1);
    expect(output.split('\n')).toEqual([
      '✘ 0 rule violations, 1 cycles between top-level units of src/ (3 units, 4 modules cruised)',
      '  error no-top-folder-cycle: src/contract/ <-> src/http/',
      '    src/contract/document/generated.ts -> src/http/errors.ts',
      '    src/http/errors.ts -> src/contract/facts.ts',
      '',
    ]);
  });

  it('When a file directly in src/ and two folders import each other in a ring, then the three make one cycle', () => {
    const { output, exitCode } = report(
      cruised([
        ['src/world.ts', 'src/areas/registry.ts'],
        ['src/areas/products/handlers.ts', 'src/observe/journal.ts'],
        ['src/observe/journal.ts', 'src/world.ts'],
      ]),
    );
    expect(exitCode).toBe(1);
    expect(output).toContain('  error no-top-folder-cycle: src/areas/ <-> src/observe/ <-> src/world.ts\n');
  });

  it('When imports only point one way between folders, and within a folder both ways, then no cycle and exit code 0', () => {
    const { output, exitCode } = report(
      cruised([
        ['src/pipeline/handle.ts', 'src/http/errors.ts'],
        ['src/http/errors.ts', 'src/contract/facts.ts'],
        ['src/contract/document/generated.ts', 'src/contract/facts.ts'],
        ['src/contract/facts.ts', 'src/contract/document/generated.ts'],
      ]),
    );
    expect(exitCode).toBe(0);
    expect(output).toBe('✔ 0 rule violations, 0 cycles between top-level units of src/ (3 units, 4 modules cruised)\n');
  });

  it('When a folder imports a package that imports the folder back, then that is no cycle of src/', () => {
    const { exitCode } = report(
      cruised([
        ['src/http/errors.ts', 'node_modules/some-lib/index.js'],
        ['node_modules/some-lib/index.js', 'src/http/errors.ts'],
        ['test/helpers/app.ts', 'src/app.ts'],
        ['src/app.ts', 'test/helpers/app.ts'],
      ]),
    );
    expect(exitCode).toBe(0);
  });

  it('When dependency-cruiser reports a rule violation, then it is listed with its severity, and the exit code is 1', () => {
    const violation: Violation = { rule: { severity: 'error', name: 'layer-store' }, from: 'src/store/store.ts', to: 'src/world.ts' };
    const { output, exitCode } = report(cruised([['src/store/store.ts', 'src/world.ts']], [violation]));
    expect(exitCode).toBe(1);
    expect(output).toBe(
      '✘ 1 rule violations, 0 cycles between top-level units of src/ (2 units, 2 modules cruised)\n  error layer-store: src/store/store.ts -> src/world.ts\n',
    );
  });
});
