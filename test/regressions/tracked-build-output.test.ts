// What npm ci installs or a build makes is never committed: a fresh clone must install and build it itself.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

describe('the repository', () => {
  it('When git lists the tracked files, then none is under node_modules/, dist/ or data/', () => {
    const listed = spawnSync('git', ['ls-files', '--', 'node_modules', 'dist', 'data'], { cwd: ROOT, encoding: 'utf8' });
    expect(listed.status).toBe(0);
    expect(listed.stdout.split('\n').filter(Boolean)).toEqual([]);
  });
});
