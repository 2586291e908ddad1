import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import SummaryReporter from './test/helpers/summary-reporter.js';
import { ISOLATED, NODE_DEPENDENT, QUICK, SLOWEST_FIRST } from './test/suites.js';

const ALL = ['test/**/*.test.ts'];

/**
 * The projects' files after the slowest: those of a project vitest runs without isolation one after another, since a
 * worker keeps its modules for the next file only when that file is of the same project.
 */
const PROJECT_ORDER = ['node', 'isolated', 'rest', 'quick'];

/**
 * Vitest's order (the last run's times when it has them), with the slowest files of test/suites.ts first and the
 * others grouped by project.
 */
class SlowestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (spec: TestSpecification) => {
      const index = SLOWEST_FIRST.findIndex((path) => spec.moduleId.endsWith(path));
      if (index >= 0) return index;
      const project = PROJECT_ORDER.indexOf(spec.project.name);
      return SLOWEST_FIRST.length + (project < 0 ? PROJECT_ORDER.length : project);
    };
    return sorted
      .map((spec, i) => ({ spec, i }))
      .sort((a, b) => rank(a.spec) - rank(b.spec) || a.i - b.i)
      .map(({ spec }) => spec);
  }
}

export default defineConfig({
  test: {
    testTimeout: 20_000,
    hookTimeout: 30_000,
    // Builds the entries that tests start as processes once per run (test/helpers/build-entries.ts).
    globalSetup: ['test/helpers/build-entries.ts'],
    reporters: ['default', new SummaryReporter()],
    // One file per core. Vitest's default keeps a core for its own process, which on two cores means one file at a
    // time; that process mostly waits for its workers' reports. VITEST_MAX_WORKERS still overrides it.
    maxWorkers: Math.max(2, availableParallelism()),
    sequence: { sequencer: SlowestFirst },
    // test/suites.ts says which file is in which project; each file is in one. The quick and rest projects run
    // without isolation: a worker runs their files one after another on the modules it has loaded (the app's
    // graph, the contract compiled by test/helpers/app.ts), instead of importing and compiling them again for each
    // file. The house rules make that safe (no module-level registry: each test builds its own runtime and world);
    // the node project keeps a process per file for the memory guard's heap readings, and `isolated` for the files
    // that replace a module (test/suites.ts ISOLATED).
    projects: [
      { extends: true, test: { name: 'quick', include: QUICK, isolate: false } },
      { extends: true, test: { name: 'node', include: NODE_DEPENDENT, exclude: QUICK } },
      { extends: true, test: { name: 'isolated', include: ISOLATED } },
      { extends: true, test: { name: 'rest', include: ALL, exclude: [...QUICK, ...NODE_DEPENDENT, ...ISOLATED], isolate: false } },
    ],
    coverage: { provider: 'v8', include: ['src/**'] },
  },
});
