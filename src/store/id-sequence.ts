import { hash, randomBytes } from 'node:crypto';

/** The first hex digit of byte 8 once its top bits are 10 (RFC 9562 variant), by its two low bits. */
const VARIANT_DIGITS = '89ab';

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
    // The digest as hex text, not a Buffer: Node makes a string of it much faster than a Buffer. The version nibble
    // (byte 6) becomes 4 and the variant bits (byte 8) 10, as setting them on the bytes would.
    const hex = hash('sha256', `${this.salt}:${this.issued++}`, 'hex');
    const variant = VARIANT_DIGITS[Number.parseInt(hex[16]!, 16) & 0x3]!;
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
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
