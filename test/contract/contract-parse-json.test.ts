import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readContractJson, writeContractJson } from '../../src/contract/document/contract-json.js';
import { listOperations, parseYaml } from '../../src/contract/document/load-contract.js';
import { contractPath } from '../../src/paths.js';

// The build's JSON copy of the contract stands in for parsing openapi.yaml only while it names that very text.
describe('The parsed contract kept as JSON by the build', () => {
  const dirs: string[] = [];
  const tempFile = () => {
    const dir = mkdtempSync(join(tmpdir(), 'contract-json-'));
    dirs.push(dir);
    return join(dir, 'openapi.json');
  };
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('When the copy was made from the same openapi.yaml text, then it reads as the parsed YAML does', () => {
    const text = readFileSync(contractPath, 'utf8');
    const file = tempFile();
    writeContractJson(text, parseYaml(text), file);
    expect(readContractJson(text, file)).toEqual(parseYaml(text));
  });

  it('When the contract holds text outside ASCII (a dash, an accent, an emoji), then the copy is ASCII alone and reads back the same text', () => {
    const text = 'openapi: 3.1.0\ninfo: { title: "Caf\u00e9 \u2014 orders \ud83d\udce6", version: "1" }\npaths: {}\n';
    const file = tempFile();
    writeContractJson(text, parseYaml(text), file);
    expect([...readFileSync(file)].every((byte) => byte < 0x80)).toBe(true);
    expect(readContractJson(text, file)).toEqual(parseYaml(text));
    expect((readContractJson(text, file) as { info: { title: string } }).info.title).toBe('Caf\u00e9 \u2014 orders \ud83d\udce6');
  });

  it('When openapi.yaml changed after the copy was made (even by one character), then the copy is not used', () => {
    const text = 'openapi: 3.1.0\ninfo: { title: a, version: "1" }\npaths: {}\n';
    const file = tempFile();
    writeContractJson(text, parseYaml(text), file);
    expect(readContractJson(text.replace('title: a', 'title: b'), file)).toBeUndefined();
  });

  it('When there is no copy or it is not JSON, then it is not used', () => {
    const file = tempFile();
    expect(readContractJson('openapi: 3.1.0\n', file)).toBeUndefined();
    writeFileSync(file, '{"yamlSha256": ');
    expect(readContractJson('openapi: 3.1.0\n', file)).toBeUndefined();
  });

  it('When the parsed YAML holds a value JSON cannot carry (.inf), then no copy is written', () => {
    const text = 'openapi: 3.1.0\nx-limit: .inf\n';
    const file = tempFile();
    expect(() => writeContractJson(text, parseYaml(text), file)).toThrow(/does not survive JSON/);
    expect(readContractJson(text, file)).toBeUndefined();
  });
});

// A start asks for the list of operations from each step of the pipeline that keys on them: it is made once per document.
describe('The operations of a contract document', () => {
  it('When the list is asked for twice of the same document, then the same list is answered, and it cannot be changed', () => {
    const doc = parseYaml(readFileSync(contractPath, 'utf8'));
    const first = listOperations(doc);
    expect(listOperations(doc)).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    // Another document object (another parse of the same text) gets a list of its own, equal to the first.
    const other = listOperations(parseYaml(readFileSync(contractPath, 'utf8')));
    expect(other).not.toBe(first);
    expect(other).toEqual(first);
  });
});
