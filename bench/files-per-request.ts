// Counts the project files (src/ only) one warm POST /2024-09/products runs: the sandbox is started in this process,
// warmed with a few creations, then V8's precise coverage (call counts) is reset, one more creation is sent, and
// every src/ file with a function that ran is listed. Structure, not speed: how many modules one request crosses.
//
//   node --import tsx bench/files-per-request.ts [--json]
import { Session } from 'node:inspector/promises';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { startSandbox } from '../src/start-sandbox.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SRC = path.join(ROOT, 'src') + path.sep;
const MERCHANT = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';

interface FunctionCoverage {
  functionName: string;
  ranges: { startOffset: number; endOffset: number; count: number }[];
}

const sandbox = await startSandbox({ logLevel: 'silent' });
let sku = 0;
const create = async () => {
  const res = await fetch(`${sandbox.url}/2024-09/products`, {
    method: 'POST',
    headers: { authorization: `Bearer ${sandbox.tokens.owner}`, 'content-type': 'application/json' },
    body: JSON.stringify({ merchant_id: MERCHANT, sku: `FILES-${++sku}`, title: 'Counted' }),
  });
  await res.arrayBuffer();
  if (res.status !== 201) throw new Error(`POST /2024-09/products answered ${res.status}`);
};

const session = new Session();
session.connect();
try {
  for (let i = 0; i < 20; i++) await create();
  // The background compile of every operation's checks starts after the first answer: it is start-up work, not the
  // request's, so the count waits for it to finish.
  await sandbox.warmedUp;
  await session.post('Profiler.enable');
  await session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: false });
  // Taking the coverage resets the counts: what follows counts one request only.
  await session.post('Profiler.takePreciseCoverage');
  await create();
  const { result } = (await session.post('Profiler.takePreciseCoverage')) as { result: { url: string; functions: FunctionCoverage[] }[] };
  await session.post('Profiler.stopPreciseCoverage');
  const files = new Map<string, number>();
  for (const script of result) {
    if (!script.url.startsWith('file:')) continue;
    const file = fileURLToPath(script.url);
    if (!file.startsWith(SRC)) continue;
    // A function ran when its own range counted calls (the script's top level counts once at load, not here).
    const ran = script.functions.filter((fn) => fn.ranges[0]!.count > 0 && fn.functionName !== '').length;
    const anonymous = script.functions.filter((fn) => fn.ranges[0]!.count > 0 && fn.functionName === '' && fn.ranges[0]!.startOffset > 0).length;
    if (ran + anonymous > 0) files.set(path.relative(ROOT, file), ran + anonymous);
  }
  const list = [...files.entries()].sort(([a], [b]) => a.localeCompare(b));
  if (process.argv.includes('--json')) console.log(JSON.stringify({ files: list.map(([file, functions]) => ({ file, functions })), count: list.length }));
  else {
    for (const [file, functions] of list) console.log(`${String(functions).padStart(4)}  ${file}`);
    console.log(`${list.length} project files, ${list.reduce((sum, [, n]) => sum + n, 0)} functions, ran by one warm POST /2024-09/products`);
  }
} finally {
  session.disconnect();
  await sandbox.close();
}
