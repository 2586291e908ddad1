// The bundle loads and exports that progress at once. Each is held to slices of the event loop (one slice per
// turn, src/http/turn-queue.ts), so ten at once never hold the loop longer than one; but ten progressing together
// keep ten parsed bundles on the heap (the garbage collector's pauses grow with what is live) and each finishes only
// when all do. Through these lanes (p-limit, first come first served), at most HEAVY_LANES of them are parsed,
// checked and built at a time; the others wait their turn in the order they came. A lane is held for the work only:
// a load takes one once its body is all read, an export leaves its own once its pieces are built, so a client that
// sends or reads slowly holds none.
import pLimit, { type LimitFunction } from 'p-limit';
import { resourceKind, type WorldResources } from '../world-resources.js';

/** Loads and exports parsed, checked and built at once (their slices take turns of the one queue). */
export const HEAVY_LANES = 2;

/** Work admitted `HEAVY_LANES` at a time: a lane is held until the function run in it settles. */
export type Lanes = LimitFunction;

const HEAVY = resourceKind<Lanes>('heavy-lanes');

/** The sandbox's lanes for bundle loads and exports. */
export const heavyLanesOf = (shared: WorldResources): Lanes => shared.of(HEAVY, () => pLimit(HEAVY_LANES));

/** What a lane is held for: an answer, sent (finish) or abandoned by its client (close). */
interface Answer {
  once(event: 'finish' | 'close', listener: () => void): Answer;
}

/**
 * Resolves once a lane of `lanes` is the caller's, and holds it until `res` is sent or its client is gone (an answer
 * that ended while it still waited gives the lane up as soon as it gets it).
 */
export function holdLaneUntilAnswered(lanes: Lanes, res: Answer): Promise<void> {
  const answered = new Promise<void>((done) => res.once('finish', done).once('close', done));
  return new Promise<void>((admitted) => {
    void lanes(() => {
      admitted();
      return answered;
    });
  });
}
