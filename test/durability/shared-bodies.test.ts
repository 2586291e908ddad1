import { describe, expect, it } from 'vitest';
import { SharedBodies } from '../../src/pipeline/shared-bodies.js';

/** An answer's bytes as res.json sends a small one: a slice of Node's shared buffer pool. */
const sentFromPool = (text: string): Buffer => Buffer.from(text);

describe('bodies kept for replay', () => {
  it('When a small answer is kept, then its body owns its memory: no slab of the shared buffer pool is held with it', () => {
    const sent = sentFromPool('{"items":[],"total":0}');
    expect(sent.buffer.byteLength).toBeGreaterThan(sent.length);
    const kept = new SharedBodies().hold(sent);
    expect(kept.equals(sent)).toBe(true);
    expect(kept.byteOffset).toBe(0);
    expect(kept.buffer.byteLength).toBe(kept.length);
  });

  it('When an answer already owns its memory, then it is kept as sent, not copied', () => {
    const sent = Buffer.allocUnsafeSlow(5);
    sent.write('[1,2]');
    expect(new SharedBodies().hold(sent)).toBe(sent);
  });

  it('When two identical answers are kept, then they share one body until the last holder lets it go', () => {
    const bodies = new SharedBodies();
    const first = bodies.hold(sentFromPool('{"id":"prod_1"}'));
    const second = bodies.hold(sentFromPool('{"id":"prod_1"}'));
    expect(second).toBe(first);
    expect(bodies.size).toBe(1);
    bodies.release(first);
    expect(bodies.size).toBe(1);
    bodies.release(second);
    expect(bodies.size).toBe(0);
  });
});
