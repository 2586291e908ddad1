// Turns of the event loop handed to long work one waiter at a time. Work that pauses with a bare setImmediate gives
// nothing to other clients when ten such pieces of work run at once: Node runs every immediate queued before its
// check phase in that one phase, so ten 8 ms slices would hold the loop for 80 ms between two reads of the sockets.
// Through this queue, one waiter resumes per turn, and every turn reads the sockets first.
import { resourceKind, type WorldResources } from '../world-resources.js';

/** Resumes its waiters one per turn of the event loop, in the order they asked. */
export class TurnQueue {
  private readonly waiting: (() => void)[] = [];
  private scheduled = false;

  /** Resolves in a later turn of the event loop, in which no other waiter of this queue resumes. */
  next(): Promise<void> {
    return new Promise((resume) => {
      this.waiting.push(resume);
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      // The waiter's work runs once this callback returns (its continuation is a microtask), before the next turn.
      this.waiting.shift()?.();
      if (this.waiting.length > 0) this.schedule();
    });
  }
}

const TURN_QUEUE = resourceKind<TurnQueue>('turn-queue');

/** The sandbox's one turn queue: every load and export of its worlds takes its turns from it. */
export const turnsOf = (shared: WorldResources): TurnQueue => shared.of(TURN_QUEUE, () => new TurnQueue());
