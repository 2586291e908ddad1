// What an export may take before it starts. Its size is counted from what the world keeps counted (its uploads'
// bytes, its journal's), so a world whose bundle could never pass BUNDLE_MAX_BYTES is refused (413) before a byte
// is encoded; and its memory is reserved, with at most BUNDLE_EXPORTS_IN_FLIGHT exports building at once in the
// process and one per workspace (503 with Retry-After past either).
import type { UploadStorage } from '../areas/products/uploads.js';
import type { Config } from '../config.js';
import { formatBytes } from '../http/body-limits.js';
import { httpError } from '../http/errors.js';
import type { MemoryBudget, Reservation } from '../memory-reservations.js';

/** Bytes an export holds at its peak per byte of its bundle: the bundle built (its uploads in base64), its JSON text, the bytes sent. */
export const EXPORT_BYTES_PER_BUNDLE_BYTE = 3;

/** The 413 of a world whose bundle would pass BUNDLE_MAX_BYTES. */
export const bundleTooLargeMessage = (limit: number): string =>
  `The workspace's bundle would be larger than ${formatBytes(limit)} (BUNDLE_MAX_BYTES); delete records or uploads, or raise BUNDLE_MAX_BYTES.`;

/** Bytes of JSON a world's bundle is known to need before it is built: its uploads in base64, and its journal. */
export function countedBundleBytes(uploads: UploadStorage, journalBytes: number): number {
  return Math.ceil((uploads.held() ?? 0) / 3) * 4 + journalBytes;
}

/** Admits the export of the world `name` whose bundle needs at least `counted` bytes, or throws why not. */
export function admitExport(
  name: string,
  counted: number,
  budget: MemoryBudget,
  config: Pick<Config, 'bundleMaxBytes' | 'bundleExportsInFlight'>,
): Reservation {
  if (counted > config.bundleMaxBytes) httpError(413, bundleTooLargeMessage(config.bundleMaxBytes));
  return budget.reserve(
    {
      // The bundle is at most BUNDLE_MAX_BYTES, or it is refused.
      bytes: EXPORT_BYTES_PER_BUNDLE_BYTE * config.bundleMaxBytes,
      caps: [
        { key: 'bundle exports', max: config.bundleExportsInFlight, what: 'Exports' },
        { key: `bundle export of ${name}`, max: 1, what: `Exports of workspace ${name}` },
      ],
    },
    { memory: 'The sandbox is short of memory to export this workspace; retry later.' },
  );
}
