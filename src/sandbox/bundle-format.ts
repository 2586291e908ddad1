// What identifies a workspace bundle's format and the sandbox that can load it: the format's name and version, the
// contract it was exported against, and how a seed becomes a world. A load checks each before reading anything else.
import type { components } from '../contract/document/generated.js';
import { digestOfYaml } from '../contract/document/contract-json.js';
import { loadContract } from '../contract/document/load-contract.js';
import { fakerVersion } from './package-info.js';

/** A workspace bundle, as the contract's SandboxWorkspaceBundle describes it. */
export type WorkspaceBundle = components['schemas']['SandboxWorkspaceBundle'];

export const BUNDLE_FORMAT = 'commerce-operations-sandbox/workspace-bundle';
/** The one format version this sandbox writes and reads. */
export const BUNDLE_FORMAT_VERSION = 1;

/**
 * Bump SEEDERS_VERSION whenever a seeder changes what a given seed yields: a bundle stores changes against the
 * seeded base, which only the same faker release and the same seeders rebuild.
 */
const SEEDERS_VERSION = 1;
export const SEED_SCHEME = `faker@${fakerVersion}/seed-${SEEDERS_VERSION}`;

/** The contract this sandbox serves: info.version and the SHA-256 of openapi.yaml's bytes (as the build names it). */
export function contractIdentity(): WorkspaceBundle['contract'] {
  const { text, doc } = loadContract();
  return { version: doc.info.version, sha256: digestOfYaml(text) };
}

/**
 * The collections a bundle never carries: `tokens` holds the world's API tokens, which are secrets (a loaded world
 * gets its own).
 */
export const UNEXPORTED_COLLECTIONS: ReadonlySet<string> = new Set(['tokens']);
