// The sandbox as it was at an earlier commit, built beside this one, so a change's cost is a ratio measured in one
// run on one machine. The default is the last commit before the pipeline issue (Node's own start-up, the validator
// as shipped, one pipeline): its page and create figures are the ones that issue must stay within 0.9x of.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './servers.js';

export const BASELINE_COMMIT = '4f6ed55';

/**
 * The folder of `commit`'s tree, built (what its bin runs: dist/server.js before the ESM build, dist/src after), in bench/tmp (git-ignored), reusing this checkout's
 * node_modules; or why it is not available (no git history, or a build that fails).
 */
export function prepareBaseline(commit: string): { root: string; commit: string } | { skipped: string } {
  const resolved = spawnSync('git', ['rev-parse', '--short', `${commit}^{commit}`], { cwd: ROOT, encoding: 'utf8' });
  if (resolved.status !== 0) return { skipped: `commit ${commit} is not in this checkout's history` };
  const short = resolved.stdout.trim();
  const root = join(ROOT, 'bench', 'tmp', `baseline-${short}`);
  if (built(root)) return { root, commit: short };
  rmSync(root, { recursive: true, force: true });
  mkdirSync(root, { recursive: true });
  // The commit's own tree, without the node_modules some early commits tracked: the lock file pins the same versions.
  const tree = spawnSync('bash', ['-c', `git archive ${short} -- . ':(exclude)node_modules' | tar -x -C "${root}"`], { cwd: ROOT, encoding: 'utf8' });
  if (tree.status !== 0) return { skipped: `git archive ${short} failed: ${tree.stderr.trim()}` };
  symlinkSync(join(ROOT, 'node_modules'), join(root, 'node_modules'));
  const build = spawnSync('npm', ['run', '--silent', 'build'], { cwd: root, encoding: 'utf8' });
  if (build.status !== 0 || !built(root)) {
    return { skipped: `the build of ${short} failed: ${(build.stderr || build.stdout).trim().split('\n').slice(-3).join(' ')}` };
  }
  return { root, commit: short };
}

/** Whether a tree holds the build its bin runs. */
const built = (root: string) => existsSync(join(root, 'dist', 'server.js')) || existsSync(join(root, 'dist', 'src', 'main.js'));
