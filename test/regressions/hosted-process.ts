// The environment of a hosted sandbox started as its own process (test/durability/server-process.ts starts it):
// hosted mode with its admin token and public origin, in memory, its heap capped so a flood meets the budget soon.

/** The admin token the hosted processes start with (128 bits of hex). */
export const ADMIN = '5c2f0e8a9b7d4c31a6e2f08b9d7c4e15';

/** Hosted mode's variables, with the heap capped at `heapMiB` and `extra` on top. */
export function hostedEnv(heapMiB: number, extra: Record<string, string> = {}): Record<string, string> {
  return {
    HOSTED: '1',
    SANDBOX_ADMIN_TOKEN: ADMIN,
    PUBLIC_URL: 'https://sandbox.example.test',
    STORE: 'memory',
    NODE_OPTIONS: `--max-old-space-size=${heapMiB}`,
    WORKSPACE_CREATE_PER_MINUTE: '100000',
    ...extra,
  };
}

/** A PNG as the upload rules check it (its signature), just under the 5 MiB a file may have. */
export function bigPng(): Uint8Array<ArrayBuffer> {
  const image = new Uint8Array(5 * 2 ** 20 - 1024);
  image.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return image;
}
