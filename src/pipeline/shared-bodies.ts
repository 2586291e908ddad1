// Identical answers share one body. Workspaces are copy-on-write views of one seeded world, so the same read in many
// workspaces answers the same bytes: kept once, they cost memory once, and replaying them reads memory the CPU's
// caches already hold instead of one copy per workspace.
import { hash } from 'node:crypto';

/** Bodies by content, counted by the cached answers that hold them. */
export class SharedBodies {
  private readonly byDigest = new Map<string, { body: Buffer; holders: number }>();
  /** The digest of each body kept, so letting one go hashes nothing. */
  private readonly digests = new WeakMap<Buffer, string>();

  /** The one kept buffer with these bytes (this one, when none is kept yet); the caller holds it until `release`. */
  hold(body: Buffer): Buffer {
    const digest = digestOf(body);
    const kept = this.byDigest.get(digest);
    if (kept) {
      kept.holders++;
      return kept.body;
    }
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

const digestOf = (body: Buffer): string => `${body.length}:${hash('sha256', body, 'base64')}`;
