// Hash-derived values: the scraping simulation must give the same attempts and finds for the same request on every
// run and every machine, without storing them and without touching the seeded faker stream.
import { hash } from 'node:crypto';

function digest(parts: readonly (string | number)[]): Buffer {
  // A separator that cannot occur in ids keeps ('ab','c') and ('a','bc') apart. The one-shot hash gives the same
  // digest as createHash at about half the cost, which catch-up and every list of attempts pay per attempt.
  return hash('sha256', parts.join('\u001f'), 'buffer');
}

/** A stable fraction in [0, 1) for the given parts. */
export function hashFraction(...parts: (string | number)[]): number {
  return digest(parts).readUInt32BE(0) / 2 ** 32;
}

/** A stable integer in [min, max] (inclusive) for the given parts. */
export function hashInt(min: number, max: number, ...parts: (string | number)[]): number {
  return min + Math.floor(hashFraction(...parts) * (max - min + 1));
}

/** A stable UUID (version-4 layout, so it passes `format: uuid` and looks like every other id) for the given parts. */
export function hashUuid(...parts: (string | number)[]): string {
  const b = digest(parts).subarray(0, 16);
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const h = b.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}
