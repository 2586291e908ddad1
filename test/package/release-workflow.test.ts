// What a release publishes, read from the files that do it: package.json's publishing fields, the release workflow
// (.github/workflows/release.yml) and the Dockerfile's image stage. The publish itself is exercised against a real
// registry in registry-publish.test.ts; the image's install command runs in one-artifact.test.ts.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { load as parse } from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/paths.js';

const read = (path: string) => readFileSync(join(projectRoot, path), 'utf8');
const manifest = JSON.parse(read('package.json')) as Record<string, unknown> & { scripts: Record<string, string> };

interface Job {
  needs?: string;
  permissions?: Record<string, string>;
  steps: { run?: string; uses?: string; with?: Record<string, string> }[];
}
const workflow = parse(read('.github/workflows/release.yml')) as { on: { push: { tags: string[] } }; jobs: Record<string, Job> };

describe('The release', () => {
  it('When package.json is read, then the package can be published, says where it comes from, and publishes with provenance', () => {
    expect(manifest.private).toBeUndefined();
    expect(manifest).toMatchObject({
      repository: { type: 'git', url: 'git+https://github.com/commerce-operations/sandbox.git' },
      homepage: 'https://github.com/commerce-operations/sandbox#readme',
      bugs: { url: 'https://github.com/commerce-operations/sandbox/issues' },
      publishConfig: { access: 'public', provenance: true },
    });
    expect((manifest.keywords as string[]).length).toBeGreaterThan(3);
    // No script npm would run, or list, where the package is installed.
    expect(Object.keys(manifest.scripts).filter((s) => /^(pre|post)?(install|prepare)$/.test(s))).toEqual([]);
  });

  it('When a version tag is pushed, then one job tests and publishes to npm with an identity for provenance, and one builds the image for two architectures to GHCR', () => {
    const [pattern] = workflow.on.push.tags;
    // GitHub's tag filter: [0-9]+ is one or more digits.
    const matches = (tag: string) => new RegExp(`^${pattern!.replaceAll('.', '\\.')}$`).test(tag);
    expect([matches('v0.1.0'), matches('v12.3.40'), matches('main'), matches('v1.2')]).toEqual([true, true, false, false]);
    const npm = workflow.jobs.npm!;
    expect(npm.permissions).toMatchObject({ 'id-token': 'write' });
    const runs = npm.steps.map((s) => s.run?.trim()).filter(Boolean);
    expect(runs.slice(-3)).toEqual(['npm ci', 'npm test', 'npm publish']);
    // The tag must name the version being published, checked before anything is installed.
    expect(runs.findIndex((r) => r!.includes('"v$VERSION" != "$GITHUB_REF_NAME"'))).toBe(0);
    const image = workflow.jobs.image!;
    expect(image.needs).toBe('npm');
    expect(image.permissions).toMatchObject({ packages: 'write' });
    const build = image.steps.find((s) => s.uses?.startsWith('docker/build-push-action@'))!;
    expect(build.with).toMatchObject({ platforms: 'linux/amd64,linux/arm64', push: true });
    expect(image.steps.find((s) => s.uses?.startsWith('docker/login-action@'))!.with).toMatchObject({ registry: 'ghcr.io' });
  });

  it("When the Dockerfile's image stage is read, then it takes only the packed tarball from the first stage and installs it with npm, no script run", () => {
    const dockerfile = read('Dockerfile');
    const stages = dockerfile.split(/^FROM /m).slice(1);
    expect(stages).toHaveLength(2);
    expect(stages[0]).toMatch(/^RUN npm pack --pack-destination \/pack$/m);
    const copies = [...stages[1]!.matchAll(/^COPY (.*)$/gm)].map((m) => m[1]);
    expect(copies).toEqual(['--from=pack /pack /pack']);
    expect(stages[1]).toMatch(/^RUN npm install .*--ignore-scripts.* \/pack\/commerce-operations-sandbox-\*\.tgz/m);
  });
});
