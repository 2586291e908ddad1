// json-server 1.0, the benchmark's baseline, is not one of the project's dependencies: its engines field asks for
// Node >= 22.12 (npm ci would warn on the Node 20 the project supports), though it runs on Node 20 (measured on
// 20.20). The benchmark installs it on its own, once, into bench/tmp (git-ignored), and skips the comparison
// when it cannot (no registry, or a Node it does not run on).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './servers.js';

const VERSION = '1.0.0-beta.15';
const DIR = join(ROOT, 'bench', 'tmp', `json-server-${VERSION}`);

/** The path of json-server's bin.js, installing it first if needed; or why it is not available. */
export function installJsonServer(): { bin: string } | { skipped: string } {
  const bin = join(DIR, 'node_modules', 'json-server', 'lib', 'bin.js');
  if (!existsSync(bin)) {
    mkdirSync(DIR, { recursive: true });
    // --engine-strict=false and --loglevel=error: its engines field is stricter than what it needs.
    const args = ['install', '--prefix', DIR, '--no-save', '--no-audit', '--no-fund', '--engine-strict=false', '--loglevel=error', `json-server@${VERSION}`];
    const npm = spawnSync('npm', args, { cwd: DIR, encoding: 'utf8' });
    if (npm.status !== 0 || !existsSync(bin))
      return { skipped: `npm could not install json-server@${VERSION}: ${(npm.stderr || npm.stdout || '').trim().split('\n').pop()}` };
  }
  const probe = spawnSync(process.execPath, [bin, '--help'], { encoding: 'utf8', timeout: 30_000 });
  if (probe.status !== 0) return { skipped: `json-server@${VERSION} does not run on node ${process.version}: ${(probe.stderr || '').trim().split('\n')[0]}` };
  return { bin };
}
