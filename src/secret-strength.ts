// How strong a configured secret is, told before the server starts: hosted mode's admin token acts on every world,
// so a guessable one is refused rather than throttled into slowness.

/** The least strength a configured secret must have, in bits (what a random token of 16 bytes has). */
export const MIN_SECRET_BITS = 128;

// The character classes a secret's alphabet is made of; hex digits with letters a-f alone count 16 symbols.
const CLASSES: readonly [RegExp, number][] = [
  [/[a-z]/, 26],
  [/[A-Z]/, 26],
  [/[0-9]/, 10],
  [/[^a-zA-Z0-9]/, 33],
];
const HEX = /^(?=.*[a-fA-F])(?:[0-9a-f]+|[0-9A-F]+)$/;

/**
 * The bits a secret can hold at most: its length times log2 of the alphabet its character classes span. An upper
 * bound (it cannot see a chosen word), so it refuses what is surely weak, e.g. `SANDBOX_ADMIN_TOKEN=a` (5 bits);
 * `openssl rand -hex 16` (32 hex digits) is the shortest common form that passes.
 */
export function secretBits(secret: string): number {
  const length = [...secret].length;
  if (length === 0) return 0;
  const alphabet = HEX.test(secret) ? 16 : CLASSES.reduce((sum, [test, size]) => sum + (test.test(secret) ? size : 0), 0);
  return length * Math.log2(alphabet);
}

/** Why `secret`, named `name`, is too weak to start with; undefined when it is strong enough. */
export function weakSecretProblem(name: string, secret: string): string | undefined {
  const bits = secretBits(secret);
  if (bits >= MIN_SECRET_BITS) return undefined;
  return `${name} must hold at least ${MIN_SECRET_BITS} random bits (32 hex digits or more, e.g. openssl rand -hex 32), got about ${Math.floor(bits)}`;
}
