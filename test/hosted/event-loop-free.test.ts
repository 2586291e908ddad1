// The event loop stays free both ways (issue 31, findings 5 and 7): while ten maximal bundles load at once, and
// while ten full workspaces export at once, no turn of the server's event loop takes more than 50 ms of CPU, and
// another client's health checks, asked every 10 ms from a process of their own, are answered throughout (within
// what this noisy machine allows, measured idle in the same run). Before, one load of such a bundle was checked and
// built in one piece: 346 ms of CPU in one turn. The waits are printed; bench/results.md keeps them.
import type { Server } from 'node:http';
import { loadavg } from 'node:os';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { defaultConfig } from '../../src/config.js';
import { healthBaseline, type HealthWaits } from '../regressions/health-probe.js';
import { hostedApp } from './support.js';
import { maximalBundle } from './maximal-bundle.js';
import { get, inWaves, post, whileProbing } from './loop-probe.js';

const MiB = 2 ** 20;
const CONCURRENT = 10;
/** Hosted mode's bundle defaults (8 MiB, half of it in uploads), with ten loads and exports let in at once. */
const config = {
  bundleMaxBytes: 8 * MiB,
  workspaceMaxUploadBytes: 4 * MiB,
  journalWorkspaceBytes: MiB,
  journalSize: defaultConfig.journalSize,
  bundleLoadsInFlight: CONCURRENT,
  bundleExportsInFlight: CONCURRENT,
  workspaceCreatePerMinute: 10_000,
};
/**
 * CPU time one turn of the server's loop may take for the work itself, the "about 50 ms at a time": a slice
 * of the parse, check, build or export (about 5 ms, src/sandbox/time-slices.ts), the step that ends it, and the
 * socket reads of the bodies in flight (two loads or exports are parsed, checked and built at a time,
 * src/http/heavy-lanes.ts). The garbage collector's pauses that begin in the turn are taken off (their wall time,
 * so a turn with a long pause counts little): they are what the heap asks, not a piece of the work, and at load
 * averages near 16 one major collection took a turn to 51 ms of CPU. With ten loads at once a turn took 13-33 ms of
 * CPU at most (p99 10-18 ms) at load averages of 3 to 19, against 28-53 ms (p99 22-33 ms) with the body parsed in
 * one call and ten loads progressing at once, and 346 ms when a load was checked and built in one piece.
 */
const CPU_HOLD_MS = 50;

/**
 * What health may wait at the 99th percentile while the work runs: three seconds, or five times its idle 99th
 * percentile measured in the same run (before: 4.6 s behind one export, 11 s behind ten loads). On this shared
 * two-core machine at load averages near 20 each thread gets a tenth of a core, and the garbage collector's pauses
 * wait for its helper threads: with turns of at most 14-34 ms of CPU, health p99 was 380 ms (loads) and 990 ms
 * (exports) there, 30-50 ms at load averages of 3 to 6. So this bound says that health is answered throughout;
 * CPU_HOLD_MS bounds each piece of the work, and the waits are printed.
 */
const healthBound = (idle: HealthWaits) => Math.max(3000, 5 * idle.p99);

/** A probe's waits as the figures bench/results.md gives. */
const waits = (w: HealthWaits) => `p50 ${w.p50} / p99 ${w.p99} / max ${w.max} ms over ${w.waits.length} checks`;

const urlOf = (app: unknown) => `http://127.0.0.1:${((app as Server).address() as { port: number }).port}`;

describe('the event loop stays free while bundles load and export (hosted)', () => {
  it('When ten maximal bundles load at once, then no turn of the loop takes more than 50 ms of CPU and another client’s health is answered', async () => {
    const t = await hostedApp(config);
    const url = urlOf(t.app);
    const body = Buffer.from(await maximalBundle(t.app, config));
    // A first load compiles what loads are checked with, as the sandbox's warm-up would have.
    expect(await post(url, '/_sandbox/workspaces', body)).toBe(201);
    const idle = await healthBaseline(url);
    let statuses: number[] = [];
    const held = await whileProbing(url, async () => {
      statuses = await Promise.all(Array.from({ length: CONCURRENT }, () => post(url, '/_sandbox/workspaces', body)));
    });
    console.info(
      `event-loop-free loads: ${(body.length / MiB).toFixed(2)} MiB x ${CONCURRENT}; CPU held max ${held.cpuMax.toFixed(1)} ms, p99 ${held.cpuP99.toFixed(1)} ms, less GC pauses max ${held.workMax.toFixed(1)} ms (longest GC pause ${held.gcMax.toFixed(1)} ms); health ${waits(held.health)} (idle ${waits(idle)}; load average ${loadavg()[0]!.toFixed(2)})`,
    );
    expect(statuses).toEqual(Array(CONCURRENT).fill(201));
    expect(held.workMax).toBeLessThanOrEqual(CPU_HOLD_MS);
    expect(held.health.p99).toBeLessThanOrEqual(healthBound(idle));
  }, 180_000);

  it('When ten full workspaces export at once, then no turn of the loop takes more than 50 ms of CPU and another client’s health is answered', async () => {
    const t = await hostedApp(config);
    const url = urlOf(t.app);
    // A world that fills its bundle up to near BUNDLE_MAX_BYTES once exported (its own journal entries added).
    const body = Buffer.from(await maximalBundle(t.app, { ...config, bundleMaxBytes: 7 * MiB }));
    const workspaces = await inWaves(CONCURRENT, 1, async () => {
      const res = await request(t.app).post('/_sandbox/workspaces').set('Content-Type', 'application/json').send(body.toString()).expect(201);
      return { id: res.body.data.id as string, owner: res.body.data.tokens.owner as string };
    });
    const exportOf = ({ id, owner }: { id: string; owner: string }) => get(url, `/_sandbox/workspaces/${id}/export`, { Authorization: `Bearer ${owner}` });
    // A first export compiles what exports are checked with, as a load does.
    expect((await exportOf(workspaces[0]!)).status).toBe(200);
    const idle = await healthBaseline(url);
    let answers: { status: number; bytes: number }[] = [];
    const held = await whileProbing(url, async () => {
      answers = await Promise.all(workspaces.map(exportOf));
    });
    console.info(
      `event-loop-free exports: ${CONCURRENT} x ${(answers[0]!.bytes / MiB).toFixed(2)} MiB; CPU held max ${held.cpuMax.toFixed(1)} ms, p99 ${held.cpuP99.toFixed(1)} ms, less GC pauses max ${held.workMax.toFixed(1)} ms (longest GC pause ${held.gcMax.toFixed(1)} ms); health ${waits(held.health)} (idle ${waits(idle)}; load average ${loadavg()[0]!.toFixed(2)})`,
    );
    expect(answers.map((a) => a.status)).toEqual(Array(CONCURRENT).fill(200));
    for (const { bytes } of answers) expect(bytes).toBeGreaterThan(6 * MiB);
    expect(held.workMax).toBeLessThanOrEqual(CPU_HOLD_MS);
    expect(held.health.p99).toBeLessThanOrEqual(healthBound(idle));
  }, 180_000);
});
