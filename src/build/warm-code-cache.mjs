// The code cache of a server bundle (src/build/run-bundle.mjs), made by starting the server the way a user does and
// answering the first request a client makes, then stopping it: the cache then holds the code of the start and of
// that request. Run by `npm run build` for dist/server.js and by `prepare` (start-sources.mjs) for npm start's bundle.
// Always without short GC pauses, whatever the environment says: a cache is made under V8's default flags, the ones
// every start has when V8 checks it (run-bundle.mjs).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { codeCachePath, WRITE_CODE_CACHE_ENV } from './run-bundle.mjs';
import { root } from './server-bundle-options.mjs';

const OWNER_TOKEN = 'demo-owner-token';

/** Starts `script` (a file that runs `bundle` through runBundle) on a new data file, asks once, stops it; answers the cache file. */
export async function warmCodeCache(script, bundle) {
  const dir = mkdtempSync(join(tmpdir(), 'sandbox-code-cache-'));
  try {
    const args = [script, '--data', join(dir, 'data.json'), '--host', '127.0.0.1', '--port', '0', '--log-level', 'warn'];
    const child = spawn(process.execPath, args, { cwd: root, env: { ...process.env, [WRITE_CODE_CACHE_ENV]: '1', SHORT_GC_PAUSES: '0' }, stdio: ['ignore', 'pipe', 'inherit'] });
    const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal)));
    const url = await new Promise((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (chunk) => {
        out += chunk;
        const match = / listening on (http:\/\/\S+)/.exec(out);
        if (match) resolve(match[1]);
      });
      exited.then((code) => reject(new Error(`the server exited (${code}) before listening: ${out}`)));
    });
    child.stdout.resume();
    const res = await fetch(`${url}/2024-09/users/current`, { headers: { Authorization: `Bearer ${OWNER_TOKEN}` } });
    await res.arrayBuffer();
    child.kill('SIGTERM');
    const code = await exited;
    if (res.status !== 200 || code !== 0) throw new Error(`the warm-up server answered ${res.status} and exited ${code}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const file = codeCachePath(bundle);
  if (!existsSync(file)) throw new Error(`no code cache was written at ${file}`);
  return file;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [script, bundle] = process.argv.slice(2).map((arg) => join(root, arg));
  process.stdout.write(`code cache: ${relative(root, await warmCodeCache(script, bundle))}\n`);
}
