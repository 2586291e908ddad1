// Issue 35's figures: the request inspector is cheap. On the built server (in memory), in Debian's chromium through
// playwright-core:
//  - the page's first paint with 1,000 journal entries: from the navigation's start to the frame that shows the
//    journal read whole, its first screenful of rows written (the page's own mark, `inspector-journal-painted`),
//    each round in a fresh browser context (cold); beside it, when the last of the 1,000 rows is written;
//  - the products page's throughput with an inspector connected (the real page, opened and settled before the window,
//    then polling while the load runs: every 2 s, every 10 s once a poll comes back full) against none, in pairs of
//    windows, the order swapped each pair, each window on its own fresh server through the same steps (validators
//    compiled, warm-up, the inspector opened, and closed again for the window with none, settle): with one process
//    for both, the earlier window pays for the background compile and a cold JIT (an A/A run of that layout found
//    the later window's server CPU per page a quarter below the earlier one's; `--inspector-aa` runs this one's).
//    Judged on the median of the within-pair costs, over the pairs other processes left quiet when there are three
//    or more; beside it the server's CPU per 1,000 pages and chromium's CPU (from /proc), which a busy machine
//    blurs less than req/s, and what opening the page cost;
//  - the page's sizes (HTML, JS, CSS bytes as served).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { drive, type LoadToolName } from './load-tool.js';
import { WARMED_UP_LINE } from './first-calls.js';
import { cpuMsOf, MERCHANT, OWNER_TOKEN, ROOT, startSandbox, treeCpuMs, treeCpuSince } from './servers.js';

type Note = (key: string, label: string, unit: string, value: number) => void;

export const INSPECTOR_TARGETS = { firstPaintMs: 300, connectedCost: 0.05 };
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update'];
const PAGE_PATH = `/2024-09/products?merchant_id=${MERCHANT}&per_page=25`;
const AUTH = { Authorization: `Bearer ${OWNER_TOKEN}` };
const ENTRIES = 1000;
// Each measured window of the products page: long enough to hold at least one of the page's polls at its flood
// interval (10 s), so the connected window always pays for what a connected page costs.
export const INSPECTOR_WINDOW_S = 11;
const WINDOW_S = INSPECTOR_WINDOW_S;
const WARM_UP_S = 1;
/** Other processes' CPU (share of one core) under which a window counts as quiet. */
export const QUIET_OTHERS_SHARE = 10;
const SETTLE_S = 2;
/** Pairs of windows: the within-pair ratio swings by several percent either way on a shared machine, so more pairs than rounds. */
export const inspectorPairs = (rounds: number) => (rounds <= 1 ? 1 : Math.max(rounds, 8));

/**
 * CPU time (ms) spent between start and stop by the server, by chromium (every process the bench launched but the
 * server) and by this process (the load tool runs in it when it is autocannon).
 */
function cpuMeter(serverPid: number) {
  const outside = new Set([serverPid]);
  const now = () => ({ server: cpuMsOf(serverPid), chromium: treeCpuMs(outside), bench: process.cpuUsage(), machine: machineBusyMs() });
  return {
    start: now,
    stop: (from: ReturnType<typeof now>) => {
      const to = now();
      const b = process.cpuUsage(from.bench);
      const [server, chromium, bench] = [to.server - from.server, treeCpuSince(from.chromium, to.chromium), Math.round((b.user + b.system) / 1000)];
      const machine = to.machine - from.machine;
      return { server, chromium, bench, machine, others: Math.max(0, machine - server - chromium - bench) };
    },
  };
}

/** CPU time every core of the machine has been busy (all processes, ours and everyone's), from /proc/stat, in ms. */
function machineBusyMs(): number {
  try {
    const [user, nice, system, , , irq, softirq, steal] = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
    return (user! + nice! + system! + irq! + softirq! + steal!) * 10;
  } catch {
    return NaN;
  }
}

/** 1,000 requests of the kinds a client suite sends: reads, a refused create (422), an unknown record (404), a 403. */
async function fillJournal(url: string): Promise<void> {
  const calls = [
    () => fetch(`${url}/2024-09/merchants/${MERCHANT}`, { headers: AUTH }),
    () =>
      fetch(`${url}/2024-09/products`, {
        method: 'POST',
        headers: { ...AUTH, 'Content-Type': 'application/json' },
        body: JSON.stringify({ merchant_id: MERCHANT, sku: 42, title: '' }),
      }),
    () => fetch(`${url}/2024-09/products/00000000-0000-4000-8000-000000000000`, { headers: AUTH }),
    () => fetch(`${url}/2024-09/merchants/bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb`, { headers: AUTH }),
    () => fetch(`${url}/2024-09/users/current`, { headers: AUTH }),
  ];
  for (let i = 0; i < ENTRIES; i += 10) await Promise.all(Array.from({ length: 10 }, (_, j) => calls[(i + j) % calls.length]!().then((r) => r.arrayBuffer())));
}

async function firstPaints(browser: Browser, url: string, rounds: number, note: Note, log: (line: string) => void): Promise<void> {
  for (let round = 1; round <= rounds; round++) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${url}/_sandbox/inspector`);
    await page.locator('body[data-journal-ready]').waitFor({ state: 'attached', timeout: 30_000 });
    // No named function inside: tsx names functions through a helper the page does not have.
    const [painted, complete, listed] = await page.evaluate(
      async (names) => {
        const at: number[] = [];
        for (const name of names) {
          while (performance.getEntriesByName(name).length === 0) await new Promise((r) => setTimeout(r, 5));
          at.push(performance.getEntriesByName(name)[0]!.startTime);
        }
        return [...at, document.querySelectorAll('#journal tbody tr').length] as [number, number, number];
      },
      ['inspector-journal-painted', 'inspector-journal-complete'],
    );
    if (listed !== ENTRIES) throw new Error(`the inspector listed ${listed} entries, not ${ENTRIES}`);
    note('inspector.first-paint.ms', `inspector first paint with ${ENTRIES.toLocaleString('en-US')} journal entries`, 'ms', painted);
    note('inspector.all-rows.ms', `inspector: all ${ENTRIES.toLocaleString('en-US')} rows written`, 'ms', complete);
    log(`  round ${round}: first paint ${painted.toFixed(1)} ms, all ${listed} rows written ${complete.toFixed(1)} ms`);
    await context.close();
  }
}

/** The first paint, the products page with and without a connected inspector, and the page's sizes. */
export async function benchInspector(opts: {
  rounds: number;
  connections: number;
  tool: LoadToolName;
  dir: string;
  log: (line: string) => void;
  note: Note;
  /** A/A: the second arm has no inspector either, so what the structure alone makes of two equal arms shows. */
  aa?: boolean;
}): Promise<void> {
  const { rounds, connections, tool, dir, log, note, aa = false } = opts;
  const pairs = inspectorPairs(rounds);
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
  try {
    // The sizes, as served.
    const sizes = await startSandbox(join(dir, 'inspector-sizes.json'), { STORE: 'memory' });
    try {
      for (const [key, path] of [
        ['html', '/_sandbox/inspector'],
        ['js', '/_sandbox/inspector/inspector.js'],
        ['css', '/_sandbox/inspector/inspector.css'],
      ] as const) {
        const bytes = (await (await fetch(sizes.url + path)).arrayBuffer()).byteLength;
        note(`inspector.size.${key}`, `inspector ${key.toUpperCase()} as served`, 'bytes', bytes);
      }
      if (!aa) {
        log('inspector: first paint with 1,000 journal entries');
        await fillJournal(sizes.url);
        await firstPaints(browser, sizes.url, rounds, note, log);
      }
    } finally {
      await sizes.stop();
    }

    log(
      `inspector: products page ${aa ? 'with no inspector against itself (A/A)' : 'with and without a connected inspector'}, ${pairs} pairs of ${WINDOW_S} s windows, each on a fresh server`,
    );
    const second = aa ? 'again' : 'connected';
    for (let round = 1; round <= pairs; round++) {
      const rps: Record<string, number> = {};
      let busiest = 0;
      const order = round % 2 ? ['alone', second] : [second, 'alone'];
      for (const arm of order) {
        // Each window on its own fresh server, through the same steps: so neither inherits the other's heap, JIT
        // state or journal, and the order within a pair (swapped each pair) is the only difference left.
        const server = await startSandbox(join(dir, `inspector-load-${round}-${arm}.json`), { STORE: 'memory' }, ROOT, 'sandbox', [], true);
        try {
          // The sandbox compiles every operation's validators in the background after it starts: a window that
          // overlapped that compile would pay for it (with one server for both windows, always the earlier one).
          if (!(await server.printed!(WARMED_UP_LINE, 60_000))) throw new Error('the sandbox did not report its validators compiled');
          const connected = arm === 'connected';
          const drivePage = (seconds: number) => drive({ url: server.url + PAGE_PATH, method: 'GET', headers: AUTH, connections, seconds }, tool);
          // Warm-up: the JIT, and the journal full (its byte bound reached: both windows pay its eviction alike).
          await drivePage(WARM_UP_S);
          const cpu = cpuMeter(server.child.pid!);
          // Opening, in both arms: the page, its journal read whole (summed up) and written, its coverage and worlds
          // read. Serving those other operations deoptimizes the server's hot paths for a while (a probe on one server:
          // 93 ms of CPU per 1,000 pages before, 119 just after the inspector was opened and closed, 96-105 some
          // seconds on, connected or not); so the window with no inspector comes after the page was opened and
          // closed again, and the two windows differ only in the page staying connected.
          const context = await browser.newContext();
          const opened = await context.newPage();
          const opening = cpu.start();
          await opened.goto(`${server.url}/_sandbox/inspector`);
          await opened.evaluate(
            async (names) => {
              for (const name of names) while (performance.getEntriesByName(name).length === 0) await new Promise((r) => setTimeout(r, 20));
            },
            ['inspector-journal-complete', 'inspector-opened'],
          );
          const o = cpu.stop(opening);
          note('inspector.open.server.ms', 'opening the inspector on a full journal: server CPU', 'ms', o.server);
          note('inspector.open.chromium.ms', 'opening the inspector on a full journal: chromium CPU', 'ms', o.chromium);
          log(`  pair ${round}: opening the inspector took ${o.server} ms of server CPU, ${o.chromium} ms of chromium's${connected ? '' : ' (closed again)'}`);
          if (!connected) await context.close();
          const page = connected ? opened : undefined;
          // Settling, in both arms: what opening left for the collector is paid before the window, and the page is
          // polling as it does under a flood.
          await drivePage(SETTLE_S);
          const reads = () =>
            page ? page.evaluate(() => performance.getEntriesByType('resource').filter((e) => e.name.includes('/_sandbox/requests?')).length) : 0;
          const readsBefore = await reads();
          const window = cpu.start();
          const r = await drivePage(WINDOW_S);
          const used = cpu.stop(window);
          const polls = (await reads()) - readsBefore;
          if (connected) await context.close();
          rps[arm] = r.requestsPerSecond;
          busiest = Math.max(busiest, (used.others / (WINDOW_S * 1000)) * 100);
          const what = arm === 'connected' ? 'inspector connected' : arm === 'again' ? 'no inspector (A/A, second arm)' : 'no inspector';
          note(`inspector.page.${arm}.rps`, `products page, ${what}`, 'req/s', r.requestsPerSecond);
          note(`inspector.page.${arm}.server-cpu`, `server CPU per 1,000 products pages, ${what}`, 'ms', (used.server / r.requests) * 1000);
          note(
            `inspector.page.${arm}.others-cpu`,
            `other processes' CPU (not the bench's), share of one core, ${what}`,
            '%',
            (used.others / (WINDOW_S * 1000)) * 100,
          );
          note(`inspector.page.${arm}.chromium-cpu`, `chromium CPU, share of one core, ${what}`, '%', (used.chromium / (WINDOW_S * 1000)) * 100);
          log(
            `  pair ${round}: ${(connected ? `inspector connected (${polls} journal reads)` : what).padEnd(36)} ${Math.round(r.requestsPerSecond)} req/s  p99 ${r.p99Ms.toFixed(2)} ms  ` +
              `server ${((used.server / r.requests) * 1000).toFixed(1)} ms CPU per 1k  chromium ${used.chromium} ms CPU  load tool and bench ${used.bench} ms  other processes ${used.others} ms`,
          );
          if (connected) {
            // What one flood poll asks of the server, the journal full of products pages, read alone (a figure a
            // busy machine blurs less than two throughputs): 100 entries summed up, as the page reads them, and whole.
            const poll = { summary: NaN, all: NaN };
            for (const fields of ['summary', 'all'] as const) {
              const times: number[] = [];
              for (let i = 0; i < 10; i++) {
                const started = performance.now();
                await (await fetch(`${server.url}/_sandbox/requests?limit=100&workspace=default&fields=${fields}`)).arrayBuffer();
                times.push(performance.now() - started);
              }
              poll[fields] = times.sort((a, b) => a - b)[5]!;
              note(
                `inspector.poll.${fields}.ms`,
                `one read of 100 products-page entries, ${fields === 'summary' ? 'summed up (as the page polls)' : 'whole'}, served alone`,
                'ms',
                poll[fields],
              );
            }
            log(`  pair ${round}: one read of 100 entries: summed up ${poll.summary.toFixed(1)} ms, whole ${poll.all.toFixed(1)} ms`);
            // The CPU the connected inspector took in its window (all of chromium's, and its reads' server time) as
            // a share of all the CPU the machine spent in it: on a machine with no core to spare, the scheduler
            // shares the cores among what runs, so this is the share of the API's CPU, and throughput, it takes; on
            // a machine with a core to spare, more than it takes. Other processes' load changes it little, where it
            // moves req/s a lot.
            note(
              'inspector.cpu-taken.share',
              "the connected inspector's CPU, share of the machine's busy CPU in its window",
              '%',
              ((used.chromium + polls * poll.summary) / used.machine) * 100,
            );
          }
        } finally {
          await server.stop();
        }
      }
      const cost = (1 - rps[second]! / rps.alone!) * 100;
      note('inspector.page.cost', `the ${aa ? 'second arm' : 'connected inspector'}'s cost, within the pair: 1 - req/s ${second} over none`, '%', cost);
      // Other people's processes on a shared machine move req/s by tens of percent from one window to the next;
      // a pair in which they took next to nothing in both windows measures the inspector, not them.
      if (busiest <= QUIET_OTHERS_SHARE)
        note('inspector.page.quiet-cost', `the same, pairs where other processes took < ${QUIET_OTHERS_SHARE}% of one core in both windows`, '%', cost);
      // The order's own effect: the later window's req/s over the earlier one's, whichever arm each was.
      note('inspector.page.order', 'the later window of a pair over the earlier (order bias; 1 when none)', 'ratio', rps[order[1]!]! / rps[order[0]!]!);
    }
  } finally {
    await browser.close();
  }
}

/** The inspector's targets, judged on medians (the cost on the within-round ratios). */
export function inspectorChecks(med: (key: string) => number, roundRatio: (a: string, b: string) => number, count: (key: string) => number) {
  const paint = med('inspector.first-paint.ms');
  const ratio = roundRatio('inspector.page.connected.rps', 'inspector.page.alone.rps');
  const pairs = count('inspector.page.cost');
  const quiet = count('inspector.page.quiet-cost');
  // Judged on the pairs other processes left alone when there are enough of them; else on every pair, said so.
  const judged = quiet >= 3 ? med('inspector.page.quiet-cost') : (1 - ratio) * 100;
  return [
    {
      target: `inspector first paint with 1,000 entries <= ${INSPECTOR_TARGETS.firstPaintMs} ms`,
      measured: `${paint.toFixed(1)} ms`,
      ok: paint <= INSPECTOR_TARGETS.firstPaintMs,
    },
    {
      target: `products page req/s with a connected inspector >= ${1 - INSPECTOR_TARGETS.connectedCost} x without`,
      measured:
        `${Math.round(med('inspector.page.connected.rps'))} vs ${Math.round(med('inspector.page.alone.rps'))} req/s (ratio of the medians ` +
        `${(med('inspector.page.connected.rps') / med('inspector.page.alone.rps')).toFixed(3)}); within each pair, median cost ${((1 - ratio) * 100).toFixed(1)}% over all ${pairs} pairs, ` +
        (quiet >= 3
          ? `${judged.toFixed(1)}% over the ${quiet} quiet pairs (judged on these)`
          : `only ${quiet} quiet pair(s): judged on all pairs, on a machine other processes kept busy`),
      ok: judged <= INSPECTOR_TARGETS.connectedCost * 100,
    },
    {
      target: '(reference) server CPU per 1,000 products pages, connected inspector vs none (what the page adds, less blurred by a busy machine)',
      measured: `${med('inspector.page.connected.server-cpu').toFixed(1)} vs ${med('inspector.page.alone.server-cpu').toFixed(1)} ms (within each pair, median ratio ${roundRatio('inspector.page.connected.server-cpu', 'inspector.page.alone.server-cpu').toFixed(3)}); chromium used ${med('inspector.page.connected.chromium-cpu').toFixed(2)}% of one core connected, ${med('inspector.page.alone.chromium-cpu').toFixed(2)}% with no page`,
      ok: true,
      reference: true,
    },
    {
      target: `the same target from CPU accounting: what the connected inspector took (chromium's CPU and its reads' server time) <= ${INSPECTOR_TARGETS.connectedCost * 100}% of all the CPU the machine spent in its window (the API's share of it, when no core is spare; less when one is)`,
      measured: `${med('inspector.cpu-taken.share').toFixed(2)}%`,
      ok: med('inspector.cpu-taken.share') <= INSPECTOR_TARGETS.connectedCost * 100,
    },
    {
      target: '(reference) opening the inspector on a full journal (before each window, the load paused)',
      measured: `${med('inspector.open.server.ms').toFixed(0)} ms of server CPU, ${med('inspector.open.chromium.ms').toFixed(0)} ms of chromium's`,
      ok: true,
      reference: true,
    },
    {
      target: '(reference) one poll under a flood (100 products-page entries read alone), made every 10 s: summed up as the page reads them, and whole',
      measured: `${med('inspector.poll.summary.ms').toFixed(1)} ms (${((med('inspector.poll.summary.ms') / 10_000) * 100).toFixed(2)}% of one core), whole ${med('inspector.poll.all.ms').toFixed(1)} ms`,
      ok: true,
      reference: true,
    },
    {
      target: 'inspector sizes as served (HTML, JS, CSS)',
      measured: `${med('inspector.size.html')} + ${med('inspector.size.js')} + ${med('inspector.size.css')} bytes`,
      ok: true,
      reference: true,
    },
  ];
}
