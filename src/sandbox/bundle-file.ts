// A workspace bundle handed to the sandbox at start (--load run.json, startSandbox({ load })): read from its file,
// within BUNDLE_MAX_BYTES, as JSON. What goes wrong is a BundleRefused naming the file and why; the CLI exits 2.
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { formatBytes } from '../http/body-limits.js';
import { HttpError } from '../http/errors.js';

/** Why a bundle was not loaded at start: the file, its size or JSON, or the bundle itself (`errors` by field). */
export class BundleRefused extends Error {
  constructor(
    message: string,
    readonly errors?: Readonly<Record<string, readonly string[]>>,
  ) {
    super(message);
    this.name = 'BundleRefused';
  }

  /** Every line a person reads: the message, then each problem by field. */
  get lines(): string[] {
    return [this.message, ...Object.entries(this.errors ?? {}).flatMap(([field, messages]) => messages.map((m) => `  ${field}: ${m}`))];
  }

  /** A load's refusal (the HttpError the HTTP load answers with) as a refusal at start. */
  static of(error: unknown, source: string): unknown {
    return error instanceof HttpError ? new BundleRefused(`${source}: ${error.message}`, error.errors) : error;
  }
}

/** The parsed content of a bundle file, or a BundleRefused naming what is wrong with it. */
export function readBundleFile(path: string, maxBytes: number): unknown {
  const tooLarge = () => new BundleRefused(`${path}: the bundle is larger than ${formatBytes(maxBytes)} (BUNDLE_MAX_BYTES); nothing was loaded.`);
  let text: string;
  try {
    // A regular file's size is known up front; a pipe's (--load <(gunzip -c run.json.gz)) or a device's is not, so
    // the read itself stops past the limit.
    if (statSync(path).size > maxBytes) throw tooLarge();
    text = readAtMost(path, maxBytes, tooLarge);
  } catch (error) {
    if (error instanceof BundleRefused) throw error;
    throw new BundleRefused(`${path}: cannot read the bundle (${(error as NodeJS.ErrnoException).code ?? String(error)}).`);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new BundleRefused(`${path}: the bundle is not valid JSON (${(error as Error).message}); nothing was loaded.`);
  }
}

/** The file's text, read in chunks; `tooLarge()` is thrown as soon as more than `maxBytes` came. */
function readAtMost(path: string, maxBytes: number, tooLarge: () => Error): string {
  const fd = openSync(path, 'r');
  try {
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const chunk = Buffer.allocUnsafe(Math.min(1024 * 1024, maxBytes + 1 - total));
      const read = readSync(fd, chunk, 0, chunk.length, null);
      if (read === 0) break;
      total += read;
      if (total > maxBytes) throw tooLarge();
      chunks.push(chunk.subarray(0, read));
    }
    return Buffer.concat(chunks, total).toString('utf8');
  } finally {
    closeSync(fd);
  }
}
