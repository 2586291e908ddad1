import { uploadStorageFor } from '../areas/products/uploads.js';
import { outsideTransaction, type Handlers } from '../areas/handler-map.js';
import { httpError } from '../http/errors.js';
import { jsonPieces } from '../http/reply.js';
import { heavyLanesOf } from '../http/heavy-lanes.js';
import { turnsOf } from '../http/turn-queue.js';
import { bundleContractOf } from './bundle-contract.js';
import { exportPieces } from './export-bundle.js';
import { admitExport, bundleTooLargeMessage, countedBundleBytes } from './export-budget.js';

/** A world carried as one file: its export (its load is a workspace creation with the bundle as body). */
export const bundleHandlers = {
  exportSandboxWorkspace: outsideTransaction(async ({ bound }, ctx) => {
    // The world the path names (an admin's call acts on it whatever world the call itself was resolved to).
    const { id: name, world } = bound.workspace;
    const uploads = uploadStorageFor(world, ctx.config);
    // Refused from counted sizes (413), or short of memory or of room in flight (503), before anything is built.
    const reservation = admitExport(name, countedBundleBytes(uploads, ctx.observations.journal.bytesOf(name)), ctx.worlds.budget, ctx.config);
    // Admitted, it waits for its lane (src/http/heavy-lanes.ts), held while its pieces are built: a client that
    // reads slowly holds the reservation until the last piece is sent, never a lane.
    try {
      const limit = ctx.config.bundleMaxBytes;
      const pieces = await heavyLanesOf(ctx.shared)(() =>
        exportPieces(
          {
            world,
            name,
            observations: ctx.observations,
            uploads,
            contract: bundleContractOf(ctx),
            seeded: ctx.worlds.seeded,
            turns: turnsOf(ctx.shared),
          },
          limit,
          () => httpError(413, bundleTooLargeMessage(limit)),
        ),
      );
      // The reservation is held until the last piece is sent (or the client is gone).
      return jsonPieces(200, pieces, reservation.release);
    } catch (error) {
      reservation.release();
      throw error;
    }
  }),
} satisfies Partial<Handlers>;
