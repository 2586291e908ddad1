// `npm test`: the type check and the lints (package.json's typecheck, lint:openapi and lint) run beside vitest
// instead of before it, each with its output held until it ends, so they cost seconds of CPU, not minutes of the
// suite's wall time. Arguments go to vitest. Exits non-zero when any of them fails, naming which.
import { spawn } from 'node:child_process';

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const checks = ['typecheck', 'lint:openapi', 'lint'];

/** Runs `command args`; resolves with its exit code and, when `quiet`, what it printed. */
function run(command, args, quiet) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: quiet ? ['ignore', 'pipe', 'pipe'] : 'inherit' });
    let output = '';
    if (quiet) {
      child.stdout.on('data', (chunk) => (output += chunk));
      child.stderr.on('data', (chunk) => (output += chunk));
    }
    child.on('error', (error) => resolve({ code: 1, output: `${output}${error.message}\n` }));
    child.on('close', (code, signal) => resolve({ code: code ?? (signal ? 1 : 0), output }));
  });
}

const checked = checks.map((name) =>
  run(npm, ['run', '--silent', name], true).then(({ code, output }) => {
    process.stdout.write(`\n== npm run ${name}: ${code === 0 ? 'ok' : `failed (${code})`}\n${output}`);
    return { name, code };
  }),
);
const vitest = run(process.execPath, ['node_modules/vitest/vitest.mjs', 'run', ...process.argv.slice(2)], false).then(({ code }) => ({
  name: 'vitest run',
  code,
}));
const failed = (await Promise.all([...checked, vitest])).filter(({ code }) => code !== 0);
if (failed.length > 0) {
  process.stderr.write(`\nnpm test failed: ${failed.map(({ name }) => name).join(', ')}\n`);
  process.exit(1);
}
