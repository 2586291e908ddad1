import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import SummaryReporter from './test/helpers/summary-reporter.js';
import { NODE_DEPENDENT, QUICK, SLOWEST_FIRST } from './test/suites.js';

const ALL = ['test/**/*.test.ts'];

/** Vitest's order (the last run's times when it has them), with the slowest files of test/suites.ts first. */
class SlowestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (spec: TestSpecification) => {
      const index = SLOWEST_FIRST.findIndex((path) => spec.moduleId.endsWith(path));
      return index < 0 ? SLOWEST_FIRST.length : index;
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
    // test/suites.ts says which file is in which project; each file is in one.
    projects: [
      { extends: true, test: { name: 'quick', include: QUICK } },
      { extends: true, test: { name: 'node', include: NODE_DEPENDENT, exclude: QUICK } },
      { extends: true, test: { name: 'rest', include: ALL, exclude: [...QUICK, ...NODE_DEPENDENT] } },
    ],
    coverage: { provider: 'v8', include: ['src/**'] },
  },
});
