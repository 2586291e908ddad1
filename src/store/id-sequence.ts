import { hash, randomBytes } from 'node:crypto';

/** Where an id sequence stands: its salt (16 hex digits) and how many ids it has handed out. */
export interface IdSequenceState {
  salt: string;
  issued: number;
}

/**
 * The ids a world gives new records: UUIDs (version 4 layout) derived from a salt drawn when the world is made and
 * a counter. Two worlds never share a salt, so their ids do not meet; a world loaded from a bundle takes the
 * bundle's salt and counter, so it gives the next record the id the exported world would have given it.
 */
export class IdSequence {
  private salt: string;
  private issued: number;

  constructor(state?: IdSequenceState) {
    this.salt = state?.salt ?? randomBytes(8).toString('hex');
    this.issued = state?.issued ?? 0;
  }

  next(): string {
    const bytes = hash('sha256', `${this.salt}:${this.issued++}`, 'buffer');
    bytes[6] = (bytes[6]! & 0x0f) | 0x40;
    bytes[8] = (bytes[8]! & 0x3f) | 0x80;
    const hex = bytes.toString('hex', 0, 16);
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
  }

  get state(): IdSequenceState {
    return { salt: this.salt, issued: this.issued };
  }

  /** Continues where another sequence stood (a loaded bundle's). */
  restore(state: IdSequenceState): void {
    this.salt = state.salt;
    this.issued = state.issued;
  }
}
