// Identical answers share one body. Workspaces are copy-on-write views of one seeded world, so the same read in many
// workspaces answers the same bytes: kept once, they cost memory once, and replaying them reads memory the CPU's
// caches already hold instead of one copy per workspace.
//
// A kept body owns its bytes. The buffer an answer was sent from is, when small, a slice of Node's shared 8 KiB pool:
// keeping the slice keeps the whole slab (and the other answers' bytes in it) alive, and a slab that outlives two
// young-generation collections is moved to the old generation, where only a full collection frees it. Under a steady
// mix of reads and writes that was a slab per kept answer, and V8 ran a full collection every one to two seconds for
// the external memory they held (bench/results.md, "What holds kept answers' bytes").
import { hash } from 'node:crypto';

/** Bodies by content, counted by the cached answers that hold them. */
export class SharedBodies {
  private readonly byDigest = new Map<string, { body: Buffer; holders: number }>();
  /** The digest of each body kept, so letting one go hashes nothing. */
  private readonly digests = new WeakMap<Buffer, string>();

  /**
   * The one kept buffer with these bytes (a copy of `sent` that owns its memory, when none is kept yet); the caller
   * holds it until `release`.
   */
  hold(sent: Buffer): Buffer {
    const digest = digestOf(sent);
    const kept = this.byDigest.get(digest);
    if (kept) {
      kept.holders++;
      return kept.body;
    }
    const body = ownBytes(sent);
    this.byDigest.set(digest, { body, holders: 1 });
    this.digests.set(body, digest);
    return body;
  }

  /** One holder fewer; the body is forgotten with its last holder. */
  release(body: Buffer): void {
    const digest = this.digests.get(body);
    const kept = digest === undefined ? undefined : this.byDigest.get(digest);
    if (digest === undefined || !kept || kept.body !== body) return;
    if (--kept.holders === 0) this.byDigest.delete(digest);
  }

  /** How many distinct bodies are kept. */
  get size(): number {
    return this.byDigest.size;
  }
}

/** `bytes` in a buffer of their own: the same buffer when it already spans its whole memory. */
function ownBytes(bytes: Buffer): Buffer {
  if (bytes.byteOffset === 0 && bytes.buffer.byteLength === bytes.length) return bytes;
  const own = Buffer.allocUnsafeSlow(bytes.length);
  bytes.copy(own);
  return own;
}

const digestOf = (body: Buffer): string => `${body.length}:${hash('sha256', body, 'base64')}`;
