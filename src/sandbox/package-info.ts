import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../paths.js';

const pkg = JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8')) as {
  name: string;
  version: string;
  bin?: Record<string, string>;
  dependencies?: Record<string, string>;
};

/** The package version, shown by --version, the landing page and the start-up banner. */
export const packageVersion: string = pkg.version;
/** The command name users type (the package's bin). */
export const binName: string = Object.keys(pkg.bin ?? {})[0] ?? pkg.name;
/** The release of the data generator the seeders run on (pinned exactly): part of what a seed yields. */
export const fakerVersion: string = pkg.dependencies?.['@faker-js/faker'] ?? 'unknown';
