import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect, createServer as createNetServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import request from 'supertest';
import { afterEach, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import { createRuntime } from '../../src/runtime.js';
import { defaultConfig, type Config } from '../../src/config.js';
import { openPersistence } from '../../src/store/open-persistence.js';
import { MemoryPersistence } from '../../src/store/store.js';
import type { Snapshot } from '../../src/store/persistence.js';
import { snapshotTempPath } from '../../src/store/journal-files.js';
import { startSandbox } from '../../src/start-sandbox.js';
import { openWorld, openWorldWriting } from '../../src/world.js';
import { Worlds } from '../../src/worlds.js';
import { worldModel } from '../../src/areas/world-model.js';
import { contract } from '../helpers/app.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempFile(): string {
  const dir = mkdtempSync(join(tmpdir(), 'sandbox-persist-'));
  dirs.push(dir);
  return join(dir, 'sandbox.json');
}

async function start(dataFile: string, overrides: Partial<Config> = {}) {
  const config: Config = { ...defaultConfig, store: 'file', dataFile, logLevel: 'silent', ...overrides };
  const world = await openWorld({ id: 'default', model: worldModel, persistence: openPersistence(config), seed: config.seed, reset: config.reset });
  const worlds = new Worlds(world);
  return { app: createApp(createRuntime({ worlds, config, contract })), worlds };
}

const owner = { Authorization: 'Bearer demo-owner-token' };

describe('a file store', () => {
  it('When a merchant is created and the sandbox restarts on the same file, then the merchant is still there', async () => {
    const file = tempFile();
    const first = await start(file);
    const created = await request(first.app).post('/2024-09/merchants').set(owner).send({ name: 'Survivor' }).expect(201);
    await first.worlds.close();

    const second = await start(file);
    const res = await request(second.app).get(`/2024-09/merchants/${created.body.data.id}`).set(owner);
    expect(res.status).toBe(200);
    expect(res.body.data.name).toBe('Survivor');
    await second.worlds.close();
  });

  it('When the sandbox starts with reset, then the file is reseeded and earlier writes are gone', async () => {
    const file = tempFile();
    const first = await start(file);
    const created = await request(first.app).post('/2024-09/merchants').set(owner).send({ name: 'Temporary' }).expect(201);
    await first.worlds.close();
    const second = await start(file, { reset: true });
    expect((await request(second.app).get(`/2024-09/merchants/${created.body.data.id}`).set(owner)).status).toBe(404);
    await second.worlds.close();
  });

  it('When a mutating request is answered, then its change is already on disk beside the data file', async () => {
    const file = tempFile();
    const { app, worlds } = await start(file);
    const created = await request(app).post('/2024-09/merchants').set(owner).send({ name: 'On disk' }).expect(201);
    const onDisk = readdirSync(dirname(file))
      .map((name) => readFileSync(join(dirname(file), name), 'utf8'))
      .join('\n');
    expect(onDisk).toContain(created.body.data.id);
    await worlds.close();
  });
});

/** A persistence whose write of a whole world waits until the test lets it finish (or fail). */
class HeldPersistence extends MemoryPersistence {
  written: Snapshot[] = [];
  private pending: { resolve: () => void; reject: (error: Error) => void }[] = [];
  override replaceAll(snapshot: Snapshot): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.pending.push({ resolve: () => (this.written.push(snapshot), resolve()), reject });
    });
  }
  finish(): void {
    for (const write of this.pending.splice(0)) write.resolve();
  }
  fail(error: Error): void {
    for (const write of this.pending.splice(0)) write.reject(error);
  }
}

const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = createNetServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
const refused = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(false)));
    socket.once('error', () => resolve(true));
  });

describe("a new world's first write", () => {
  it('When a fresh world is opened, then it can serve before its seeded state is written, and openWorld waits for the write', async () => {
    const persistence = new HeldPersistence();
    const { world, written } = await openWorldWriting({ id: 'default', model: worldModel, persistence, seed: defaultConfig.seed });
    expect(world.store.snapshot().collections.users!.length).toBeGreaterThan(0);
    expect(persistence.written).toHaveLength(0);
    let settled = false;
    void written.then(() => (settled = true));
    await Promise.resolve();
    expect(settled).toBe(false);
    persistence.finish();
    await written;
    expect(persistence.written).toHaveLength(1);

    const waiting = new HeldPersistence();
    let opened = false;
    const opening = openWorld({ id: 'default', model: worldModel, persistence: waiting, seed: defaultConfig.seed }).then(() => (opened = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(opened).toBe(false);
    waiting.finish();
    await opening;
    expect(opened).toBe(true);
  });

  it('When the seeded state cannot be written, then the write answers why, and nothing is left unhandled meanwhile', async () => {
    const persistence = new HeldPersistence();
    const { written } = await openWorldWriting({ id: 'default', model: worldModel, persistence, seed: defaultConfig.seed });
    persistence.fail(new Error('disk full'));
    // A turn of the event loop with the failure not awaited yet: vitest fails the run on an unhandled rejection.
    await new Promise((resolve) => setImmediate(resolve));
    await expect(written).rejects.toThrow('disk full');
  });

  it('When the sandbox starts on a new data file, then by the time it has started the seeded world is on disk', async () => {
    const file = tempFile();
    const sandbox = await startSandbox({ contract, store: 'file', dataFile: file, logLevel: 'silent' });
    const onDisk = JSON.parse(readFileSync(file, 'utf8')) as { seed: number; collections: Record<string, unknown[]> };
    expect(onDisk.seed).toBe(defaultConfig.seed);
    expect(onDisk.collections.users!.length).toBeGreaterThan(0);
    await sandbox.close();
  });

  it("When the world's clock was advanced and the sandbox restarts on the same file, then it resumes at that world time; a reset takes it back", async () => {
    const file = tempFile();
    const first = await startSandbox({ contract, store: 'file', dataFile: file, logLevel: 'silent' });
    const advanced = await fetch(`${first.url}/_sandbox/clock/advance`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{"days":10}',
    });
    expect(advanced.status).toBe(200);
    await first.close();

    const again = await startSandbox({ contract, store: 'file', dataFile: file, logLevel: 'silent' });
    try {
      const clock = (await (await fetch(`${again.url}/_sandbox/clock`)).json()) as { data: { offset_ms: number } };
      expect(clock.data.offset_ms).toBe(10 * 86_400_000);
      expect((await fetch(`${again.url}/_sandbox/reset`, { method: 'POST' })).status).toBe(204);
    } finally {
      await again.close();
    }
    const afterReset = await startSandbox({ contract, store: 'file', dataFile: file, logLevel: 'silent' });
    expect(afterReset.worlds.defaultWorld.clock.offset).toBe(0);
    await afterReset.close();
  });

  it("When the data file was seeded with another seed and no seed is given, then the world keeps the file's seed: its health, its workspaces and the config say so", async () => {
    const file = tempFile();
    const first = await startSandbox({ contract, store: 'file', dataFile: file, logLevel: 'silent', seed: 5 });
    await first.close();
    const again = await startSandbox({ contract, store: 'file', dataFile: file, logLevel: 'silent' });
    try {
      expect(again.config.seed).toBe(5);
      expect(((await (await fetch(`${again.url}/_sandbox/health`)).json()) as { seed: number }).seed).toBe(5);
      const ws = again.createWorkspace();
      expect(again.worlds.workspace(ws.id)?.world.store.seed).toBe(5);
    } finally {
      await again.close();
    }
  });

  it("When a seed is given that is not the data file's, then the start is refused naming both and --reset, and the file is left as it was", async () => {
    const file = tempFile();
    const first = await startSandbox({ contract, store: 'file', dataFile: file, logLevel: 'silent', seed: 5 });
    await first.close();
    const before = readFileSync(file, 'utf8');
    await expect(startSandbox({ contract, store: 'file', dataFile: file, logLevel: 'silent', seed: 6 })).rejects.toThrow(
      `The data file ${file} holds a world seeded with 5, not with seed 6 (--seed, SEED). It was left untouched. Start with --reset (or RESET=1) to reseed it with seed 6, or without a seed to keep it.`,
    );
    expect(readFileSync(file, 'utf8')).toBe(before);
    const reseeded = await startSandbox({ contract, store: 'file', dataFile: file, logLevel: 'silent', seed: 6, reset: true });
    expect(reseeded.config.seed).toBe(6);
    await reseeded.close();
  });

  it('When the runtime refuses the configuration (hosted mode without an admin token), then the start fails and lets the data file go', async () => {
    const file = tempFile();
    await expect(startSandbox({ contract, store: 'file', dataFile: file, logLevel: 'silent', hosted: true })).rejects.toThrow(/admin token/);
    const again = await startSandbox({ contract, store: 'file', dataFile: file, logLevel: 'silent' });
    await again.close();
  });

  it('When the data file cannot be loaded, then the start fails and lets the data file go, so the same process starts on it once it is mended', async () => {
    const file = tempFile();
    writeFileSync(file, 'not json');
    await expect(startSandbox({ contract, store: 'file', dataFile: file, logLevel: 'silent' })).rejects.toThrow(/cannot be read/);
    rmSync(file);
    const again = await startSandbox({ contract, store: 'file', dataFile: file, logLevel: 'silent' });
    await again.close();
  });

  it('When the seeded world of a new data file cannot be written, then the start fails with why, stops listening and lets the data file go', async () => {
    const file = tempFile();
    // The snapshot is written to this temporary name and renamed: a folder in its place makes the write fail.
    mkdirSync(snapshotTempPath(file));
    const port = await freePort();
    await expect(startSandbox({ contract, store: 'file', dataFile: file, logLevel: 'silent', port })).rejects.toThrow(/EISDIR/);
    expect(await refused(port)).toBe(true);
    rmSync(snapshotTempPath(file), { recursive: true });
    const again = await startSandbox({ contract, store: 'file', dataFile: file, logLevel: 'silent', port });
    expect(again.url).toBe(`http://127.0.0.1:${port}`);
    await again.close();
  });
});
