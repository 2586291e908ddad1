// Loading a workspace bundle: into a new workspace (POST /_sandbox/workspaces with the bundle as body), or into the
// default world when the sandbox starts (startSandbox({ load }), --load). Either way the bundle is checked, the
// world is built aside, and only a world loaded whole is served. Both run in slices of the event loop
// (src/sandbox/time-slices.ts), so other clients are served while a large bundle is checked and built.
import { uploadStorageFor } from '../areas/products/uploads.js';
import type { Config } from '../config.js';
import type { Ctx } from '../areas/context.js';
import type { SeededBases } from '../world.js';
import type { World } from '../world.js';
import { bundleContractOf, type BundleContract } from './bundle-contract.js';
import type { WorkspaceBundle } from './bundle-format.js';
import { checkBundle } from './check-bundle.js';
import { loadIntoWorld, restoreObservations } from './load-bundle.js';
import type { WorldObservations } from '../observe/world-observations.js';
import { TimeSlices } from './time-slices.js';
import { turnsOf, type TurnQueue } from '../http/turn-queue.js';

/** A bundle's load into a new workspace: `prepare` fills its world before it is registered, `loaded` after. */
export interface BundleLoad {
  prepare(world: World): Promise<void>;
  loaded(name: string): Promise<void>;
}

/** True for a creation's body that carries something (no body reads as `{}`, a plain creation). */
const carriesBundle = (body: unknown): boolean => body !== undefined && body !== null && !(typeof body === 'object' && Object.keys(body).length === 0);

/** The load a creation's body asks for; undefined for a plain creation. */
export function bundleLoad(body: unknown, ctx: Pick<Ctx, 'config' | 'observations' | 'worlds' | 'contract' | 'shared'>): BundleLoad | undefined {
  if (!carriesBundle(body)) return undefined;
  let bundle: WorkspaceBundle | undefined;
  const { config } = ctx;
  const slices = new TimeSlices(turnsOf(ctx.shared));
  return {
    prepare: async (world) => {
      const seed = world.store.seed;
      const expect = {
        contract: bundleContractOf(ctx),
        seed,
        base: ctx.worlds.seeded.of(seed),
        maxAddedRecords: config.workspaceMaxRecords,
        maxUploadBytes: config.workspaceMaxUploadBytes,
        journalSize: config.journalSize,
      };
      // A turn first: the body was parsed and validated in the turns before this one.
      await slices.yield();
      bundle = await checkBundle(body, expect, slices);
      await loadIntoWorld(world, bundle, () => uploadStorageFor(world, config), slices);
    },
    loaded: (name) => restoreObservations(ctx.observations, name, bundle!, slices),
  };
}

/**
 * Loads a bundle into the default world before the sandbox serves it (its quotas are a workspace's, so none
 * apply) and answers the bundle as checked; rejects with the HttpError that says why when it cannot be loaded whole.
 */
export async function loadDefaultWorld(
  world: World,
  value: unknown,
  {
    observations,
    config,
    contract,
    seeded,
    turns,
  }: { observations: WorldObservations; config: Config; contract: BundleContract; seeded: SeededBases; turns: TurnQueue },
): Promise<WorkspaceBundle> {
  const seed = world.store.seed;
  const slices = new TimeSlices(turns);
  const bundle = await checkBundle(value, { contract, seed, base: seeded.of(seed), journalSize: config.journalSize }, slices);
  await loadIntoWorld(world, bundle, () => uploadStorageFor(world, config), slices);
  await restoreObservations(observations, 'default', bundle, slices);
  return bundle;
}
