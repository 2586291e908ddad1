import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { dump, load } from 'js-yaml';
import { parseYaml } from '../../src/contract/document/load-contract.js';
import { contractPath } from '../../src/paths.js';

// The contract is parsed with js-yaml's YAML 1.2 core schema, and served as YAML by the same library (docs-page.ts).
describe('Parsing the contract', () => {
  it('When a value would be a YAML 1.1 date, boolean or number, then it is read as YAML 1.2 reads it', () => {
    const text = ['since: 2024-09-01', 'answer: yes', 'switch: on', 'octal: 0o17', 'legacyOctal: 017', 'sexagesimal: 1:20', 'merge: { <<: { a: 1 } }', ''].join(
      '\n',
    );
    expect(parseYaml(text)).toStrictEqual({
      since: '2024-09-01',
      answer: 'yes',
      switch: 'on',
      octal: 15,
      legacyOctal: 17,
      sexagesimal: '1:20',
      merge: { '<<': { a: 1 } },
    });
  });

  it('When the parsed contract is written as YAML the way /openapi.yaml serves it, then a YAML 1.1 reader and a 1.2 reader both get the same document back', () => {
    const doc = parseYaml(readFileSync(contractPath, 'utf8'));
    const served = dump(doc, { noRefs: true, lineWidth: -1 });
    expect(load(served)).toStrictEqual(doc);
    expect(parseYaml(served)).toStrictEqual(doc);
  });
});
