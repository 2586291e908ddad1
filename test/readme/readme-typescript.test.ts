// The README's TypeScript blocks run as written: the vitest setup as a test file of its own (a child vitest), every
// other block as a module (a child node with tsx). The package's name resolves to this checkout's sources, as
// `npm i` of the package would resolve it to its build.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { PROCESS_TEST_TIMEOUT } from '../durability/server-process.js';
import { documents } from './readme-blocks.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Every ```ts block of the README and docs/, with where it stands. */
function typescriptBlocks(): { at: string; code: string }[] {
  return documents(ROOT).flatMap(({ file, text }) =>
    [...text.matchAll(/^```(?:ts|typescript)\n([\s\S]*?)^```$/gm)].map((m) => ({
      at: `${file}:${text.slice(0, m.index).split('\n').length}`,
      code: m[1].replaceAll("from 'commerce-operations-sandbox'", `from '${join(ROOT, 'src', 'index.ts')}'`),
    })),
  );
}

describe("The README's TypeScript blocks", () => {
  // Inside the checkout, so the blocks' own imports (vitest, supertest) resolve from its node_modules; a dot folder,
  // so the suite's own test glob never picks a leftover up.
  const dir = mkdtempSync(join(ROOT, 'test', 'readme', '.typescript-blocks-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('When they are read, then there is a test runner setup and a supertest block', () => {
    const blocks = typescriptBlocks();
    expect(blocks.some((b) => /\bit\(/.test(b.code))).toBe(true);
    expect(blocks.some((b) => /supertest/.test(b.code))).toBe(true);
  });

  it(
    'When each runs as written (a test file under vitest, a module under node), then it passes',
    () => {
      const failures: string[] = [];
      typescriptBlocks().forEach(({ at, code }, i) => {
        const isTestFile = /\bit\(/.test(code);
        const file = join(dir, `block-${i}.${isTestFile ? 'spec' : 'module'}.ts`);
        writeFileSync(file, code);
        const run = isTestFile
          ? (writeFileSync(join(dir, 'vitest.config.ts'), `export default { test: { include: ['*.spec.ts'] } };\n`),
            spawnSync(process.execPath, [join(ROOT, 'node_modules', 'vitest', 'vitest.mjs'), 'run', '--root', dir, file], { cwd: ROOT, encoding: 'utf8' }))
          : spawnSync(process.execPath, ['--import', 'tsx', file], { cwd: ROOT, encoding: 'utf8' });
        if (run.status !== 0) failures.push(`${at} exited ${run.status}:\n${(run.stdout + run.stderr).slice(-2000)}`);
      });
      expect(failures).toEqual([]);
    },
    PROCESS_TEST_TIMEOUT,
  );
});
