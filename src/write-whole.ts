import { existsSync, renameSync, rmSync, writeFileSync } from 'node:fs';

/**
 * Writes `data` to `file` so that a reader at the same moment (another start of the sandbox) finds the whole file or
 * the one before it, never part of one: written beside it under this process's own name, then renamed over it. On
 * failure the part written is removed (existsSync first: rmSync throws where the path runs through a file) and the
 * error is thrown. The build's own scripts (src/build/*.mjs) do the same inline: they run before anything is compiled.
 */
export function writeFileWhole(file: string, data: string): void {
  const aside = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(aside, data);
    renameSync(aside, file);
  } catch (error) {
    if (existsSync(aside)) rmSync(aside, { force: true });
    throw error;
  }
}
