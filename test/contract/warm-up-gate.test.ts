import { EventEmitter } from 'node:events';
import type { Server } from 'node:http';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { quietServerGate } from '../../src/pipeline/validator-warm-up.js';

// The server and its answers stand in as emitters: the gate listens for 'request' and each answer's 'close' only.
const fakeServer = () => new EventEmitter() as unknown as Server;
const request = (server: Server) => {
  const res = new EventEmitter();
  server.emit('request', {}, res);
  return { close: () => res.emit('close') };
};
const watch = (promise: Promise<void>) => {
  const state = { open: false };
  void promise.then(() => (state.open = true));
  return state;
};

describe('the warm-up compiles between requests', () => {
  beforeEach(() => void vi.useFakeTimers({ toFake: ['setTimeout', 'performance'] }));
  afterEach(() => void vi.useRealTimers());

  it('When a request is in flight, then the warm-up waits, and compiles once the server has been quiet for 20 ms', async () => {
    const server = fakeServer();
    const gate = quietServerGate(server);
    const held = request(server);
    const next = watch(gate());
    await vi.advanceTimersByTimeAsync(5_000);
    expect(next.open).toBe(false);
    held.close();
    await vi.advanceTimersByTimeAsync(15);
    expect(next.open).toBe(false);
    await vi.advanceTimersByTimeAsync(10);
    expect(next.open).toBe(true);
  });

  it('When requests follow each other closely, then the warm-up waits for a gap between them', async () => {
    const server = fakeServer();
    const gate = quietServerGate(server);
    await vi.advanceTimersByTimeAsync(100);
    let next = { open: false };
    for (let i = 0; i < 50; i++) {
      const r = request(server);
      if (i === 0) next = watch(gate());
      await vi.advanceTimersByTimeAsync(5);
      r.close();
      await vi.advanceTimersByTimeAsync(5);
      expect(next.open).toBe(false);
    }
    await vi.advanceTimersByTimeAsync(25);
    expect(next.open).toBe(true);
  });

  it('When nothing is asked, then the warm-up does not wait', async () => {
    const gate = quietServerGate(fakeServer());
    await vi.advanceTimersByTimeAsync(100);
    const next = watch(gate());
    await vi.advanceTimersByTimeAsync(0);
    expect(next.open).toBe(true);
  });
});
