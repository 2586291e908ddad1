// The shell blocks of the README and of docs/, as a reader copies them: every ```sh block, in order, with the file and
// the heading it stands under. The docs' blocks continue the README's (they use its B, field, H and M).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** A shell block of the README and where it stands, so a failure names the place to fix. */
export interface ShellBlock {
  /** The document, relative to the repository's root (README.md, docs/hosting.md). */
  file: string;
  heading: string;
  line: number;
  code: string;
  /** The block starts the sandbox itself (`npm start`): the harness does that step the same way instead. */
  startsTheSandbox: boolean;
}

/** The marker a README author puts right above the block that installs and starts the sandbox. */
export const STARTS_THE_SANDBOX = '<!-- readme-test: starts the sandbox -->';

/** README.md, then every docs/*.md by name: the order a test runs their blocks in. */
export function documents(root: string): { file: string; text: string }[] {
  const docs = readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`);
  return ['README.md', ...docs].map((file) => ({ file, text: readFileSync(join(root, file), 'utf8') }));
}

export function shellBlocks(markdown: string, file = 'README.md'): ShellBlock[] {
  const lines = markdown.split('\n');
  const blocks: ShellBlock[] = [];
  let heading = '(top)';
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (/^#{1,6} /.test(line)) heading = line.replace(/^#+ /, '');
    const fence = /^```(\w+)?\s*$/.exec(line);
    if (!fence) continue;
    const end = lines.findIndex((l, j) => j > i && /^```\s*$/.test(l));
    if (end < 0) throw new Error(`${file} line ${i + 1}: a code block that never ends`);
    if (fence[1] === 'sh' || fence[1] === 'bash' || fence[1] === 'shell') {
      const before = lines.slice(Math.max(0, i - 2), i).join('\n');
      blocks.push({ file, heading, line: i + 1, code: lines.slice(i + 1, end).join('\n'), startsTheSandbox: before.includes(STARTS_THE_SANDBOX) });
    }
    i = end;
  }
  return blocks;
}

/**
 * One bash script of every block that does not start the sandbox, in order (variables carry over, as in a reader's
 * terminal), stopping at the first failing command and saying which block it was in.
 */
export function scriptOf(blocks: readonly ShellBlock[]): string {
  const parts = ['set -euo pipefail', `trap 'echo "Documentation block at $README_BLOCK failed: $BASH_COMMAND" >&2' ERR`];
  for (const block of blocks) {
    if (block.startsTheSandbox) continue;
    parts.push(`README_BLOCK='${block.file} line ${block.line} (${block.heading.replace(/'/g, '')})'`, block.code);
  }
  return parts.join('\n');
}
