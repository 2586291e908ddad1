import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { builtServerPackages } from '../../bench/startup.js';

// The start-up floor's imports (bench/dependencies-floor.mjs) are the packages the build imports, read from it.
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function build(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'built-packages-'));
  dirs.push(dir);
  for (const [name, source] of Object.entries(files)) {
    mkdirSync(join(dir, name, '..'), { recursive: true });
    writeFileSync(join(dir, name), source);
  }
  return dir;
}

describe('the packages the built server imports', () => {
  it('When chunks import packages (named, default, multi-line, side effect, subpath), then each is listed once, sorted', () => {
    const dir = build({
      'main.js': 'import {\n  a,\n  b\n} from "./chunk-A.js";\nimport express from "express";\nimport "./chunk-B.js";\n',
      'chunk-A.js': 'import { faker } from "@faker-js/faker/locale/en";\nimport express2, { Router } from "express";\nexport { a, b };\n',
      'cli/nested.js': 'import "side-effect-pkg";\nimport { JSONFile } from "lowdb/node";\n',
    });
    expect(builtServerPackages(dir, [])).toEqual(['@faker-js/faker/locale/en', 'express', 'lowdb/node', 'side-effect-pkg']);
  });

  it('When a file names Node built-ins, relative chunks, or a string after an export list, then none of them is listed', () => {
    const dir = build({
      'main.js': 'import { resolve } from "node:path";\nimport "./chunk-C.js";\nexport { x };\nconst label = "not-a-package";\n',
      'types.d.ts': 'import type { Express } from "express";\n',
    });
    expect(builtServerPackages(dir, [])).toEqual([]);
  });

  it('When the build bundled a package into its chunks, then it is listed too, once, as the floor loads it from node_modules', () => {
    const dir = build({ 'main.js': 'import cors from "cors";\n', 'chunk-A.js': 'import helmet from "helmet";\nimport cors2 from "cors";\n' });
    expect(builtServerPackages(dir, ['express', 'helmet'])).toEqual(['cors', 'express', 'helmet']);
  });
});
