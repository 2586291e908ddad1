import request from 'supertest';
import { expect } from 'vitest';
import type { Config } from '../../src/config.js';
import { testApp, type TestAppOptions } from '../helpers/app.js';

/** The admin token the hosted tests start with (128 bits of hex). */
export const ADMIN = '5c2f0e8a9b7d4c31a6e2f08b9d7c4e15';

/**
 * Failed admin attempts for tests that walk many wrong tokens from one address (what they show is not the
 * throttle, which admin-throttle.test.ts shows).
 */
export const UNTHROTTLED = 100_000;

/** The public origin the hosted tests start with: every absolute URL hosted mode answers points there. */
export const PUBLIC_URL = 'https://sandbox.example.test';

/**
 * A fresh sandbox in hosted mode (or local with `hosted: false`), served as testApp serves one, with a wall clock the
 * test moves (`clock.ms`), which drives workspace idleness.
 */
export async function hostedApp(overrides: Partial<Config> = {}, options: Pick<TestAppOptions, 'memory'> = {}) {
  const clock = { ms: Date.parse('2026-01-01T00:00:00Z') };
  const t = await testApp(
    { hosted: true, adminToken: ADMIN, publicUrl: PUBLIC_URL, workspaceCreatePerMinute: 10, ...overrides },
    { now: () => clock.ms, ...options },
  );
  return { app: t.app, worlds: t.worlds, clock, errors: t.errors };
}

export type Tokens = Record<'owner' | 'member' | 'outsider' | 'rival', string>;

/** Creates a workspace through the API, as a visitor would. */
export async function newWorkspace(app: Parameters<typeof request>[0]): Promise<{ id: string; tokens: Tokens }> {
  const res = await request(app).post('/_sandbox/workspaces').expect(201);
  return res.body.data;
}

export const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

/**
 * Loads a workspace bundle as a visitor would (an object, or its JSON text where it holds what JSON.stringify cannot
 * write) and expects it refused: 422 with a field error `names` accepts, and no workspace made of it. Answers the
 * response for the test's own checks.
 */
export async function loadRefused(
  h: Pick<Awaited<ReturnType<typeof hostedApp>>, 'app' | 'worlds'>,
  bundle: object | string,
  names: (field: string) => boolean,
): Promise<request.Response> {
  const before = h.worlds.workspaceCount;
  const res = await request(h.app).post('/_sandbox/workspaces').set('Content-Type', 'application/json').send(bundle);
  expect(res.status, res.text.slice(0, 400)).toBe(422);
  const fields = Object.keys(res.body.errors ?? {});
  expect(fields.some(names), `${fields.join(', ')}: ${res.text.slice(0, 400)}`).toBe(true);
  expect(h.worlds.workspaceCount).toBe(before);
  return res;
}
