import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { writeFileWhole } from '../../src/write-whole.js';

// A file a concurrent start may read while it is written (the contract's copy, a seeded world).
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function aDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'sandbox-write-whole-'));
  dirs.push(dir);
  return dir;
}

describe('writing a file whole', () => {
  it('When a file is written over an old one, then it holds the new text and nothing else is left beside it', () => {
    const dir = aDir();
    writeFileSync(join(dir, 'copy.json'), 'old');
    writeFileWhole(join(dir, 'copy.json'), 'new');
    expect(readFileSync(join(dir, 'copy.json'), 'utf8')).toBe('new');
    expect(readdirSync(dir)).toEqual(['copy.json']);
  });

  it('When the new text cannot be put in place, then the error is thrown, the old entry stays and nothing is left beside it', () => {
    const dir = aDir();
    // A folder holding a file cannot be renamed over.
    mkdirSync(join(dir, 'copy.json'));
    writeFileSync(join(dir, 'copy.json', 'inside'), '');
    expect(() => writeFileWhole(join(dir, 'copy.json'), 'new')).toThrow();
    expect(readdirSync(dir)).toEqual(['copy.json']);
    expect(readdirSync(join(dir, 'copy.json'))).toEqual(['inside']);
  });

  it('When the folder cannot hold it (the path runs through a file), then the error thrown is the write\'s own', () => {
    const dir = aDir();
    writeFileSync(join(dir, 'a-file'), '');
    expect(() => writeFileWhole(join(dir, 'a-file', 'copy.json'), 'new')).toThrow(expect.objectContaining({ code: 'ENOTDIR', syscall: 'open' }));
    expect(readdirSync(dir)).toEqual(['a-file']);
  });
});
