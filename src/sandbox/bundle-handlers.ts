import { uploadStorageFor } from '../areas/products/uploads.js';
import { outsideTransaction, type Handlers } from '../areas/handler-map.js';
import { formatBytes } from '../http/body-limits.js';
import { httpError } from '../http/errors.js';
import { ok } from '../http/reply.js';
import { exportBundle } from './export-bundle.js';

/** The 413 of a world whose bundle would pass BUNDLE_MAX_BYTES. */
export const bundleTooLargeMessage = (limit: number): string =>
  `The workspace's bundle would be larger than ${formatBytes(limit)} (BUNDLE_MAX_BYTES); delete records or uploads, or raise BUNDLE_MAX_BYTES.`;

/** A world carried as one file: its export (its load is a workspace creation with the bundle as body). */
export const bundleHandlers = {
  exportSandboxWorkspace: outsideTransaction(async ({ bound }, ctx) => {
    // The world the path names (an admin's call acts on it whatever world the call itself was resolved to).
    const { id: name, world } = bound.workspace;
    const bundle = await exportBundle({ world, name, observations: ctx.observations, uploads: uploadStorageFor(world, ctx.config) });
    if (Buffer.byteLength(JSON.stringify(bundle)) > ctx.config.bundleMaxBytes) httpError(413, bundleTooLargeMessage(ctx.config.bundleMaxBytes));
    return ok(bundle);
  }),
} satisfies Partial<Handlers>;
