// The bundle loads and exports that progress at once. Each is held to slices of the event loop (one slice per
// turn, src/http/turn-queue.ts), so ten at once never hold the loop longer than one; but ten progressing together
// keep ten parsed bundles on the heap (the garbage collector's pauses grow with what is live) and each finishes only
// when all do. Through these lanes, at most HEAVY_LANES of them are parsed, checked and built at a time; the others
// wait their turn in the order they came. A lane is held for the work only: a load takes one once its body is all
// read, an export leaves its own once its pieces are built, so a client that sends or reads slowly holds none.
import { resourceKind, type WorldResources } from '../world-resources.js';

/** Loads and exports parsed, checked and built at once (their slices take turns of the one queue). */
export const HEAVY_LANES = 2;

/** Admits work `width` at a time, in the order it asked. */
export class Lanes {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly width: number) {}

  /** Resolves once a lane is free for the caller; the function it answers frees the lane (calling it again does nothing). */
  async enter(): Promise<() => void> {
    if (this.running < this.width) this.running++;
    else await new Promise<void>((admitted) => this.waiting.push(admitted));
    let left = false;
    return () => {
      if (left) return;
      left = true;
      const next = this.waiting.shift();
      // The lane passes to the next in line as it is; else it is free.
      if (next) next();
      else this.running--;
    };
  }
}

const HEAVY = resourceKind<Lanes>('heavy-lanes');

/** The sandbox's lanes for bundle loads and exports. */
export const heavyLanesOf = (shared: WorldResources): Lanes => shared.of(HEAVY, () => new Lanes(HEAVY_LANES));

/** What a lane is held for: an answer, sent (finish) or abandoned by its client (close). */
interface Answer {
  once(event: 'finish' | 'close', listener: () => void): Answer;
}

/** Waits for a lane of `lanes`, and holds it until `res` is sent or its client is gone (even while it still waits). */
export async function holdLaneUntilAnswered(lanes: Lanes, res: Answer): Promise<void> {
  let leave: (() => void) | undefined;
  let answered = false;
  const done = () => {
    answered = true;
    leave?.();
  };
  res.once('finish', done).once('close', done);
  leave = await lanes.enter();
  if (answered) leave();
}
