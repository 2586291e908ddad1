// Preloaded (node --import) into a server the benchmark starts, never into the sandbox itself: the server's own
// event-loop delay (perf_hooks.monitorEventLoopDelay, sampled every millisecond), which is how long anything the
// server was sent waited behind the work it was doing, read without any client's or network's noise. On SIGUSR2 it
// writes what it saw since the last SIGUSR2 to LOOP_DELAY_FILE as one JSON line, then starts over.
import { writeFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';

const file = process.env.LOOP_DELAY_FILE;
if (!file) throw new Error('bench/loop-delay.mjs needs LOOP_DELAY_FILE');
const histogram = monitorEventLoopDelay({ resolution: 1 });
histogram.enable();
let seq = 0;
process.on('SIGUSR2', () => {
  const ms = (ns) => ns / 1e6;
  const reading = { seq: ++seq, count: histogram.count, p50Ms: ms(histogram.percentile(50)), p99Ms: ms(histogram.percentile(99)), maxMs: ms(histogram.max) };
  histogram.reset();
  writeFileSync(file, JSON.stringify(reading) + '\n');
});
