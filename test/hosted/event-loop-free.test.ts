// The event loop stays free both ways (issue 31, findings 5 and 7): while ten maximal bundles load at once, and
// while ten full workspaces export at once, no turn of the server's event loop takes more than 75 ms of CPU (21-48 ms
// measured), and another client's health checks are answered throughout (within what this noisy machine allows,
// measured idle in the same run). Before, one load of such a bundle was checked and built in one piece: 346 ms of
// CPU in one turn.
import type { Server } from 'node:http';
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
 * CPU time one turn of the server's loop may take: its largest pieces are a body's JSON.parse and the contract
 * validator's pass over it (about 10-25 ms each for 8 MiB on a quiet core), a slice of the check or build (about
 * 8 ms), and what the garbage collector does on the thread. With ten loads at once a turn took 21-48 ms here (the
 * higher figures at load averages near 20, where contended cores run slower per CPU millisecond), against 346 ms
 * before (the whole check and build of one load); the bound leaves that contention room.
 */
const CPU_HOLD_MS = 75;

/**
 * What health may wait at the 99th percentile while the work runs: three seconds, or five times its idle 99th
 * percentile measured in the same run. On this shared two-core machine (load averages of 6 to 20) the OS takes the
 * cores from the server for hundreds of milliseconds (its thread was seen off the CPU for 370 ms between two turns
 * that spent 37 ms of CPU; idle health p99 ranged from 37 to 969 ms between runs), so a wall-clock bound can only say
 * that health is answered throughout: CPU_HOLD_MS is what bounds each piece of the work, and the waits are printed.
 */
const healthBound = (idle: HealthWaits) => Math.max(3000, 5 * idle.p99);

const urlOf = (app: unknown) => `http://127.0.0.1:${((app as Server).address() as { port: number }).port}`;

describe('the event loop stays free while bundles load and export (hosted)', () => {
  it('When ten maximal bundles load at once, then no turn of the loop takes more than 75 ms of CPU and another client’s health is answered', async () => {
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
      `event-loop-free loads: ${(body.length / MiB).toFixed(2)} MiB x ${CONCURRENT}; CPU held max ${held.cpuMax.toFixed(1)} ms, p99 ${held.cpuP99.toFixed(1)} ms; health p99 ${held.health.p99} ms, max ${held.health.max} ms (idle p99 ${idle.p99} ms)`,
    );
    expect(statuses).toEqual(Array(CONCURRENT).fill(201));
    expect(held.cpuMax).toBeLessThanOrEqual(CPU_HOLD_MS);
    expect(held.health.p99).toBeLessThanOrEqual(healthBound(idle));
  }, 180_000);

  it('When ten full workspaces export at once, then no turn of the loop takes more than 75 ms of CPU and another client’s health is answered', async () => {
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
      `event-loop-free exports: ${CONCURRENT} x ${(answers[0]!.bytes / MiB).toFixed(2)} MiB; CPU held max ${held.cpuMax.toFixed(1)} ms, p99 ${held.cpuP99.toFixed(1)} ms; health p99 ${held.health.p99} ms, max ${held.health.max} ms (idle p99 ${idle.p99} ms)`,
    );
    expect(answers.map((a) => a.status)).toEqual(Array(CONCURRENT).fill(200));
    for (const { bytes } of answers) expect(bytes).toBeGreaterThan(6 * MiB);
    expect(held.cpuMax).toBeLessThanOrEqual(CPU_HOLD_MS);
    expect(held.health.p99).toBeLessThanOrEqual(healthBound(idle));
  }, 180_000);
});
