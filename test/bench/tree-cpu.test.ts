import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { treeCpuMs, treeCpuSince } from '../../bench/servers.js';

// How the inspector's bench reads chromium's CPU (bench/servers.ts): every process below the bench but the ones it
// leaves out, from /proc; across two readings, what the processes alive at the second used since the first.
describe("the benchmark's CPU reading of the processes it started", () => {
  it.runIf(process.platform === 'linux')(
    'When a child burns CPU, then it is counted by pid, a grandchild too, and a pid left out is not, with its descendants',
    async () => {
      // A child that starts a grandchild burning 300 ms of CPU (CPU time, not wall time: the machine may be busy), and
      // reports the grandchild's pid once it has.
      const burner = `
        const { spawn } = require('node:child_process');
        const g = spawn(process.execPath, ['-e', "while (process.cpuUsage().user < 300000); process.stdout.write('burned'); setInterval(() => {}, 1000)"], { stdio: ['ignore', 'pipe', 'inherit'] });
        g.stdout.once('data', () => process.stdout.write(String(g.pid)));
        process.on('SIGTERM', () => { g.kill(); process.exit(0); });
      `;
      const child = spawn(process.execPath, ['-e', burner], { stdio: ['ignore', 'pipe', 'inherit'] });
      try {
        const [data] = (await once(child.stdout, 'data')) as [Buffer];
        const grandchild = Number(data.toString());
        const all = treeCpuMs(new Set());
        expect(all.has(child.pid!)).toBe(true);
        expect(all.get(grandchild)).toBeGreaterThanOrEqual(200);
        const without = treeCpuMs(new Set([child.pid!]));
        expect(without.has(child.pid!)).toBe(false);
        expect(without.has(grandchild)).toBe(false);
        // Since an earlier reading: a process there before counts what it used since; one new counts all it used.
        expect(treeCpuSince(new Map([[grandchild, all.get(grandchild)! - 50]]), new Map([[grandchild, all.get(grandchild)!]]))).toBe(50);
        expect(treeCpuSince(new Map(), new Map([[grandchild, 70]]))).toBe(70);
        // One that ended between the two readings is left out.
        expect(treeCpuSince(new Map([[1, 500]]), new Map([[grandchild, 70]]))).toBe(70);
      } finally {
        child.kill();
        await once(child, 'exit').catch(() => {});
      }
    },
  );
});
