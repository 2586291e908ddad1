// A workspace bundle handed to the sandbox at start (--load run.json, startSandbox({ load })): read from its file,
// within BUNDLE_MAX_BYTES, as JSON. What goes wrong is a BundleRefused naming the file and why; the CLI exits 2.
import { readFileSync, statSync } from 'node:fs';
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
  let size: number;
  try {
    size = statSync(path).size;
  } catch (error) {
    throw new BundleRefused(`${path}: cannot read the bundle (${(error as NodeJS.ErrnoException).code ?? String(error)}).`);
  }
  if (size > maxBytes) throw new BundleRefused(`${path}: the bundle is larger than ${formatBytes(maxBytes)} (BUNDLE_MAX_BYTES); nothing was loaded.`);
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as unknown;
  } catch (error) {
    throw new BundleRefused(`${path}: the bundle is not valid JSON (${(error as Error).message}); nothing was loaded.`);
  }
}
