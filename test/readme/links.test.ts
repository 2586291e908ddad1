// The README and docs/ point at what exists: every relative link names a file of the repository, every #anchor a
// heading of the document it points into (as GitHub renders them), and every file they name in passing is there.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { documents } from './readme-blocks.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** The text outside code blocks and inline code, where a link is a link (lines kept, so line numbers stay). */
function prose(markdown: string): string {
  return markdown.replace(/^```[\s\S]*?^```/gm, (block) => block.replace(/[^\n]/g, '')).replace(/`[^`\n]*`/g, (code) => ' '.repeat(code.length));
}

/** GitHub's anchors of a document's headings: lowercased, punctuation dropped, spaces as dashes, repeats numbered. */
function anchorsOf(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const [, title] of markdown.replace(/^```[\s\S]*?^```/gm, '').matchAll(/^#{1,6} (.+)$/gm)) {
    const base = title
      .replace(/`/g, '')
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N} _-]/gu, '')
      .replace(/ /g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  return anchors;
}

/** Every relative link target of a document, with the line it is on. */
function linksOf(markdown: string): { target: string; line: number }[] {
  const text = prose(markdown);
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((m) => ({ target: m[1], line: text.slice(0, m.index).split('\n').length }))
    .filter(({ target }) => !/^[a-z]+:/i.test(target));
}

/** The repository files a document names in passing (`src/pipeline/mount-contract.ts`, test/readme/), with their line. */
function pathsNamedIn(markdown: string): { path: string; line: number }[] {
  return markdown.split('\n').flatMap((text, i) =>
    [...text.matchAll(/(?<![\w./-])((?:src|test|bench|bin|deploy|fixtures|docs)\/[\w./-]*[\w/])/g)]
      .map((m) => m[1])
      // A pattern (src/areas/<area>/, *-handlers.ts) names no one file.
      .filter((path) => !/[<*]/.test(text.slice(text.indexOf(path), text.indexOf(path) + path.length + 1)))
      .map((path) => ({ path, line: i + 1 })),
  );
}

/** Where the repository is published: absolute links into it name its files. */
const REPOSITORY_FILES = 'https://github.com/commerce-operations/sandbox/blob/main/';
/** An image the package does not ship (a screenshot), shown from the repository as it is. */
const REPOSITORY_RAW = 'https://github.com/commerce-operations/sandbox/raw/main/';

/** Every link target of a document outside code, relative or absolute, with its line. */
function allLinksOf(markdown: string): { target: string; line: number }[] {
  const text = prose(markdown);
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => ({ target: m[1], line: text.slice(0, m.index).split('\n').length }));
}

/** The files `npm pack` puts in the package (package.json's `files`; the build's dist/ aside, which no document links). */
function packedFiles(): Set<string> {
  const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  return new Set((JSON.parse(out) as { files: { path: string }[] }[])[0]!.files.map((f) => f.path));
}

describe('Links of the README and docs/', () => {
  it('When the package is installed, then every relative link of a document it ships names a file it ships, and every link into the repository names a file of it', () => {
    const shipped = packedFiles();
    expect(shipped.has('README.md') && shipped.has('docs/ci.md')).toBe(true);
    const broken: string[] = [];
    for (const { file, text } of documents(ROOT).filter((d) => shipped.has(d.file))) {
      for (const { target, line } of allLinksOf(text)) {
        const path = target.split('#')[0]!;
        const prefix = [REPOSITORY_FILES, REPOSITORY_RAW].find((p) => target.startsWith(p));
        if (prefix) {
          if (!existsSync(join(ROOT, target.slice(prefix.length).split('#')[0]!))) broken.push(`${file}:${line} ${target}: no such file here`);
        } else if (!/^[a-z]+:/i.test(target) && path) {
          const into = normalize(join(dirname(file), path));
          const isShippedDir = [...shipped].some((f) => f.startsWith(`${into.replace(/\/$/, '')}/`));
          if (!shipped.has(into) && !isShippedDir)
            broken.push(`${file}:${line} ${target}: ${into} is not in the package (link it as ${REPOSITORY_FILES}${into})`);
        }
      }
    }
    expect(broken).toEqual([]);
  }, 60_000);

  it('When a document links a file or a heading of the repository, then it exists', () => {
    const broken: string[] = [];
    for (const { file, text } of documents(ROOT)) {
      for (const { target, line } of linksOf(text)) {
        const [path, anchor] = target.split('#');
        const into = path ? normalize(join(dirname(file), path)) : file;
        const full = join(ROOT, into);
        if (!existsSync(full)) {
          broken.push(`${file}:${line} ${target}: no ${into}`);
          continue;
        }
        if (anchor === undefined) continue;
        if (statSync(full).isDirectory() || !into.endsWith('.md')) {
          broken.push(`${file}:${line} ${target}: an anchor into ${into}, which is not a document`);
        } else if (!anchorsOf(readFileSync(full, 'utf8')).has(anchor)) {
          broken.push(`${file}:${line} ${target}: ${into} has no heading #${anchor}`);
        }
      }
    }
    expect(broken).toEqual([]);
  });

  it('When a document names a file or folder of the repository, then it exists (a moved or retired file is named no more)', () => {
    // Folders a run makes (bench/tmp/, git-ignored) are named before they exist.
    const made = readFileSync(join(ROOT, '.gitignore'), 'utf8')
      .split('\n')
      .filter((l) => l.endsWith('/'));
    const missing = documents(ROOT).flatMap(({ file, text }) =>
      pathsNamedIn(text)
        .filter(({ path }) => !existsSync(join(ROOT, path)) && !made.some((dir) => `${path}/`.startsWith(dir)))
        .map(({ path, line }) => `${file}:${line} ${path}`),
    );
    expect(missing).toEqual([]);
  });

  it('When a comment in src/ names a file of the repository, then it exists (comments follow a moved or merged file)', () => {
    const sources = readdirSync(join(ROOT, 'src'), { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.ts') && !file.endsWith('generated.ts'))
      .map((file) => `src/${file}`);
    const missing = sources.flatMap((file) =>
      pathsNamedIn(readFileSync(join(ROOT, file), 'utf8'))
        .filter(({ path }) => !existsSync(join(ROOT, path)))
        .map(({ path, line }) => `${file}:${line} ${path}`),
    );
    expect(missing).toEqual([]);
  });

  it("When a document is in docs/, then the README's table of documents links it", () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const table = readme.slice(readme.indexOf('## More documentation'));
    const unlisted = documents(ROOT)
      .map(({ file }) => file)
      .filter((file) => file.startsWith('docs/') && !table.includes(`](${file})`));
    expect(unlisted).toEqual([]);
  });

  it('When headings are turned into anchors, then they are the ones GitHub makes', () => {
    expect([...anchorsOf("## Walk-through: the specification's workflow with curl\n## The control plane (`/_sandbox`)\n## A\n## A")]).toEqual([
      'walk-through-the-specifications-workflow-with-curl',
      'the-control-plane-_sandbox',
      'a',
      'a-1',
    ]);
  });

  it('When a broken link or a file named in passing is written, then the checks find it', () => {
    expect(linksOf('see [x](docs/nowhere.md#there) and `[y](not-a-link.md)`')).toEqual([{ target: 'docs/nowhere.md#there', line: 1 }]);
    expect(pathsNamedIn('in `src/nowhere.ts`, src/areas/<area>/ and\n(test/gone/).')).toEqual([
      { path: 'src/nowhere.ts', line: 1 },
      { path: 'test/gone/', line: 2 },
    ]);
  });
});
