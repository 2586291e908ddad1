// Another client's view of a server under load: how long each health check waits, asked one after another.

/** What the probe saw: each wait in ms, their maximum and 99th percentile. */
export interface HealthWaits {
  waits: number[];
  max: number;
  p99: number;
}

/** The 99th percentile of some waits (the largest for fewer than 100). */
export function p99(waits: readonly number[]): number {
  if (waits.length === 0) return 0;
  const sorted = [...waits].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.99) - 1)]!;
}

/** Asks `url`'s health one request at a time until stopped; a failed request counts as the time it took. */
export function healthProbe(url: string): { stop(): Promise<HealthWaits> } {
  const waits: number[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const started = performance.now();
      try {
        const res = await fetch(`${url}/_sandbox/health`);
        await res.arrayBuffer();
      } catch {
        // A dead server: the wait until the failure is what the client saw.
      }
      waits.push(Math.round(performance.now() - started));
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return { waits, max: Math.max(0, ...waits), p99: p99(waits) };
    },
  };
}
