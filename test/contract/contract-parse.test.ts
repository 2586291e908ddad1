import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parse as parseWithYaml } from 'yaml';
import { parseCached, parseYaml } from '../../src/contract/load-contract.js';
import { contractPath } from '../../src/paths.js';

// The contract is parsed with js-yaml (the faster parser) and served as YAML with `yaml`: both must read it alike.
describe('Parsing the contract', () => {
  it('When openapi.yaml is parsed, then the document is the one `yaml` reads', () => {
    const text = readFileSync(contractPath, 'utf8');
    expect(parseYaml(text)).toStrictEqual(parseWithYaml(text));
  });

  it('When a value would be a YAML 1.1 date, boolean or number, then it is read as YAML 1.2 reads it, as `yaml` does', () => {
    const text = ['since: 2024-09-01', 'answer: yes', 'switch: on', 'octal: 0o17', 'legacyOctal: 017', 'sexagesimal: 1:20', 'merge: { <<: { a: 1 } }', ''].join('\n');
    const ours = parseYaml(text) as unknown as Record<string, unknown>;
    expect(ours).toStrictEqual(parseWithYaml(text));
    expect(ours.since).toBe('2024-09-01');
    expect(ours.answer).toBe('yes');
  });
});

describe('The contract\'s parsed copy', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  /** Two empty copy folders (the shipped one, then the one a start writes to) and the writes a start leaves for later. */
  function places() {
    const [shipped, cache] = [0, 1].map(() => mkdtempSync(join(tmpdir(), 'sandbox-contract-copy-')));
    dirs.push(shipped!, cache!);
    const later: (() => void)[] = [];
    return { shipped: shipped!, cache: cache!, later, places: { dirs: [shipped!, cache!], later: (write: () => void) => void later.push(write) } };
  }
  const TEXT = 'openapi: 3.0.3\ninfo: { title: Copy, version: "1" }\npaths: {}\n';

  it('When there is no copy, then the YAML is parsed, and its copy is written after the start rather than during it', () => {
    const t = places();
    expect(parseCached(TEXT, t.places)).toStrictEqual(parseYaml(TEXT));
    expect(readdirSync(t.cache)).toEqual([]);
    expect(t.later).toHaveLength(1);
    t.later[0]!();
    const [copy] = readdirSync(t.cache);
    expect(copy).toMatch(/^openapi-[0-9a-f]{16}\.json$/);
    expect(JSON.parse(readFileSync(join(t.cache, copy!), 'utf8'))).toStrictEqual(parseYaml(TEXT));
    expect(readdirSync(t.shipped)).toEqual([]);
  });

  it('When a start has written its copy, then the next start reads it and writes nothing', () => {
    const t = places();
    parseCached(TEXT, t.places);
    t.later.splice(0).forEach((write) => write());
    const copy = join(t.cache, readdirSync(t.cache)[0]!);
    // A copy that differs from what the YAML says shows which one was read.
    const marked = { ...parseYaml(TEXT), 'x-read-from': 'copy' };
    writeFileSync(copy, JSON.stringify(marked));
    expect(parseCached(TEXT, t.places)).toStrictEqual(marked);
    expect(t.later).toHaveLength(0);
  });

  it('When the YAML is edited, then its copy is not the old one\'s: the edit is parsed', () => {
    const t = places();
    parseCached(TEXT, t.places);
    t.later.splice(0).forEach((write) => write());
    const edited = TEXT.replace('title: Copy', 'title: Edited');
    expect(parseCached(edited, t.places).info.title).toBe('Edited');
    expect(t.later).toHaveLength(1);
  });

  it('When the copy cannot be written (a read-only install), then the start goes on and leaves nothing behind', () => {
    const t = places();
    const blocked = join(t.cache, 'not-a-folder');
    writeFileSync(blocked, '');
    parseCached(TEXT, { dirs: [t.shipped, join(blocked, 'copies')], later: (write) => write() });
    expect(readdirSync(t.cache)).toEqual(['not-a-folder']);
    expect(existsSync(join(blocked, 'copies'))).toBe(false);
  });
});

