// Prism 5.16 `mock` of openapi.yaml, the benchmark's peer for start-up and first calls (issue 32): a stateless mock
// of the same contract, what an integrator would otherwise run (`npx @stoplight/prism-cli mock openapi.yaml`). Like
// json-server it is not one of the project's dependencies: the benchmark installs it once into bench/tmp
// (git-ignored, --ignore-scripts) and skips the comparison when it cannot.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { freePort, OWNER_TOKEN, ROOT, startProcess, type Running } from './servers.js';

export const PRISM_VERSION = '5.16.0';
const DIR = join(ROOT, 'bench', 'tmp', `prism-${PRISM_VERSION}`);

/** The path of Prism's CLI entry, installing it first if needed; or why it is not available. */
export function installPrism(): { bin: string } | { skipped: string } {
  const bin = join(DIR, 'node_modules', '@stoplight', 'prism-cli', 'dist', 'index.js');
  if (!existsSync(bin)) {
    mkdirSync(DIR, { recursive: true });
    const args = [
      'install',
      '--prefix',
      DIR,
      '--no-save',
      '--no-audit',
      '--no-fund',
      '--ignore-scripts',
      '--loglevel=error',
      `@stoplight/prism-cli@${PRISM_VERSION}`,
    ];
    const npm = spawnSync('npm', args, { cwd: DIR, encoding: 'utf8' });
    if (npm.status !== 0 || !existsSync(bin))
      return { skipped: `npm could not install @stoplight/prism-cli@${PRISM_VERSION}: ${(npm.stderr || npm.stdout || '').trim().split('\n').pop()}` };
  }
  return { bin };
}

/** The arguments that start Prism's mock of this checkout's contract on `port` (loopback). */
export const prismArgs = (bin: string, port: number | string): string[] => [bin, 'mock', '-h', '127.0.0.1', '-p', String(port), join(ROOT, 'openapi.yaml')];

/** Prism's mock on a free port, ready at its first 200 of the sandbox's probe (the same request, the same token). */
export async function startPrism(bin: string): Promise<Running> {
  const port = await freePort();
  return startProcess({
    name: `Prism ${PRISM_VERSION} mock`,
    args: prismArgs(bin, port),
    port,
    probe: '/2024-09/users/current',
    headers: { Authorization: `Bearer ${OWNER_TOKEN}` },
  });
}
