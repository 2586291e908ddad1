import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadContract } from '../../src/contract/document/load-contract.js';
import { projectRoot } from '../../src/paths.js';

const read = (file: string) => JSON.parse(readFileSync(join(projectRoot, file), 'utf8'));
// npm's own range logic (semver is what npm checks engines with; it is in the install through many dependencies).
const semver = createRequire(import.meta.url)('semver') as {
  satisfies(version: string, range: string): boolean;
  minVersion(range: string): { version: string };
};

interface LockEntry {
  engines?: { node?: string };
  os?: string[];
  cpu?: string[];
}

describe('versions that agree', () => {
  it('When the contract is read, then its info.version is the package version (README "Versions")', () => {
    expect(loadContract().doc.info.version).toBe(read('package.json').version);
  });

  it('When npm ci runs on the lowest Node of each range engines allows, then no locked package asks for a newer Node (no EBADENGINE)', () => {
    const engines: string = read('package.json').engines.node;
    const lowest = engines.split('||').map((range) => semver.minVersion(range.trim()).version);
    expect(lowest).toEqual(['22.13.0', '24.0.0', '26.0.0']);
    const packages = read('package-lock.json').packages as Record<string, LockEntry>;
    const refusals = lowest.flatMap((node) =>
      Object.entries(packages)
        // Platform packages npm skips on Linux x64 (the CI and Docker platform) are never checked.
        .filter(([path, entry]) => path && entry.engines?.node && (!entry.os || entry.os.includes('linux')) && (!entry.cpu || entry.cpu.includes('x64')))
        .filter(([, entry]) => !semver.satisfies(node, entry.engines!.node!))
        .map(([path, entry]) => `${path} needs ${entry.engines!.node} (node ${node})`),
    );
    expect(refusals).toEqual([]);
  });
});
