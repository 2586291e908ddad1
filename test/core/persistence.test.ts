import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import request from 'supertest';
import { afterEach, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import { createRuntime } from '../../src/runtime.js';
import { defaultConfig, type Config } from '../../src/config.js';
import { openPersistence } from '../../src/store/open-persistence.js';
import { openWorld } from '../../src/world.js';
import { Worlds } from '../../src/worlds.js';

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
  const world = await openWorld({ id: 'default', persistence: openPersistence(config), seed: config.seed, reset: config.reset });
  const worlds = new Worlds(world);
  return { app: createApp(createRuntime({ worlds, config })), worlds };
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
    const onDisk = readdirSync(dirname(file)).map((name) => readFileSync(join(dirname(file), name), 'utf8')).join('\n');
    expect(onDisk).toContain(created.body.data.id);
    await worlds.close();
  });
});
