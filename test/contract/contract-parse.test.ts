import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse as parseWithYaml } from 'yaml';
import { parseYaml } from '../../src/contract/document/load-contract.js';
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
