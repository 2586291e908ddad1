// Preloaded (node --import) into a server the benchmark starts, never into the sandbox itself: the server's own
// event-loop delay (perf_hooks.monitorEventLoopDelay, sampled every millisecond), which is how long anything the
// server was sent waited behind the work it was doing, read without any client's or network's noise; and its
// garbage collections' pauses over the same time, the part of that delay the heap accounts for. On SIGUSR2 it
// writes what it saw since the last SIGUSR2 to LOOP_DELAY_FILE as one JSON line, then starts over.
import { writeFileSync } from 'node:fs';
import { monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';

const file = process.env.LOOP_DELAY_FILE;
if (!file) throw new Error('bench/loop-delay.mjs needs LOOP_DELAY_FILE');
const histogram = monitorEventLoopDelay({ resolution: 1 });
histogram.enable();
let gc = { count: 0, totalMs: 0, maxMs: 0 };
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    gc.count++;
    gc.totalMs += entry.duration;
    gc.maxMs = Math.max(gc.maxMs, entry.duration);
  }
}).observe({ entryTypes: ['gc'] });
let seq = 0;
process.on('SIGUSR2', () => {
  const ms = (ns) => ns / 1e6;
  const reading = {
    seq: ++seq,
    count: histogram.count,
    p50Ms: ms(histogram.percentile(50)),
    p99Ms: ms(histogram.percentile(99)),
    maxMs: ms(histogram.max),
    gc,
  };
  histogram.reset();
  gc = { count: 0, totalMs: 0, maxMs: 0 };
  writeFileSync(file, `${JSON.stringify(reading)}\n`);
});
