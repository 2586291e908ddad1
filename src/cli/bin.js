#!/usr/bin/env node
// The `commerce-operations-sandbox` command (npx commerce-operations-sandbox --help). It runs the built server
// (dist/server.js, from `npm run build`) and falls back to the TypeScript sources through tsx when there is no
// build, or when the sources are newer than the build (a checkout someone is editing).
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const built = join(root, 'dist', 'server.js');
const sources = join(root, 'src');

function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

const useBuild = existsSync(built) && (!existsSync(sources) || statSync(built).mtimeMs >= newestMtime(sources));
if (useBuild) {
  await import(pathToFileURL(built).href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import(pathToFileURL(join(sources, 'main.ts')).href);
}
