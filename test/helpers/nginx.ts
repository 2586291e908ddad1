// The replica test runs Debian's nginx (CI installs it with apt, as it does chromium); this helper finds it, starts
// it on loopback from a generated configuration in a throwaway directory, and always stops it.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { nginxConfig, type EdgeLimits, type Replica } from '../../deploy/nginx/nginx-config.js';
import { accepts, eventually } from './server-process.js';
import { skippableDescribe } from './skippable-suite.js';

/** Where nginx lives; NGINX_PATH overrides it for machines that keep it elsewhere. */
export const NGINX_PATH = process.env.NGINX_PATH ?? '/usr/sbin/nginx';

const isCI = /^(1|true)$/i.test(process.env.CI ?? '');
const nginxMissing = !existsSync(NGINX_PATH);

/** Why nginx tests are skipped, or undefined when they run: only on a machine without nginx, never in CI. */
export const nginxSkipReason: string | undefined =
  nginxMissing && !isCI ? `nginx not found at ${NGINX_PATH}; install it (apt-get install -y nginx) or set NGINX_PATH` : undefined;

/** A describe() for nginx suites: skipped with a visible reason locally, always run in CI. */
export const describeWithNginx = skippableDescribe('nginx', nginxSkipReason);

/** A free loopback port (the OS picks one; nginx binds it right after). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/** A running nginx in front of the replicas; stop() ends it and deletes its directory. */
export interface RunningNginx {
  url: string;
  stop(): Promise<void>;
}

/** Starts nginx in the foreground on 127.0.0.1 with the deploy/nginx configuration for these replicas (and limits). */
export async function startNginx(replicas: readonly Replica[], limits: Partial<EdgeLimits> = {}): Promise<RunningNginx> {
  if (nginxMissing)
    throw new Error(`nginx not found at ${NGINX_PATH} and CI=true, so the test fails instead of skipping. Install it with: apt-get install -y nginx`);
  const dir = await mkdtemp(join(tmpdir(), 'sandbox-nginx-'));
  // Workers run as an unprivileged user when the master is root: they must reach the temp directories.
  await chmod(dir, 0o755);
  const port = await freePort();
  const errorLog = join(dir, 'error.log');
  const conf = join(dir, 'nginx.conf');
  await writeFile(conf, nginxConfig({ replicas, listen: `127.0.0.1:${port}`, errorLog, accessLog: 'off', tempDir: dir, limits }));
  const child = spawn(NGINX_PATH, ['-e', errorLog, '-p', dir, '-c', conf, '-g', `daemon off; pid ${join(dir, 'nginx.pid')};`], {
    stdio: 'ignore',
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let gone = false;
  void exited.then(() => (gone = true));
  const stop = async () => {
    if (!gone) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    }
    await rm(dir, { recursive: true, force: true });
  };
  const url = `http://127.0.0.1:${port}`;
  if (!(await eventually(async () => gone || (await accepts(url)), 10_000)) || gone) {
    const log = await readFile(errorLog, 'utf8').catch(() => '');
    await stop();
    throw new Error(`nginx did not start on ${url}: ${log}`);
  }
  return { url, stop };
}
