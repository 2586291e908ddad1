// Hosted mode's rules beyond the contract: an admin token that may act on any world (with a throttle of wrong
// guesses), and a cap on the workspaces one client address creates per minute. The registry of worlds knows
// neither; the control plane applies them.
import type { Config } from '../config.js';
import { weakSecretProblem } from '../secret-strength.js';
import { AdminAttempts, DEFAULT_ADMIN_ATTEMPTS } from './admin-attempts.js';
import { CreationLimit } from './creation-limit.js';

/** Who may act on any world, and how fast one address may create workspaces. */
export interface AccessPolicy {
  /** Hosted mode's settings; undefined in local mode. */
  readonly hosted: { adminToken: string; adminAttempts: AdminAttempts } | undefined;
  /** Creations per client address per minute, when limited. */
  readonly creationLimit: CreationLimit | undefined;
}

/** The policy a configuration asks for. */
export function accessPolicy(config: Pick<Config, 'hosted' | 'adminToken' | 'adminAttemptsPerHour' | 'workspaceCreatePerMinute'>): AccessPolicy {
  if (config.hosted && !config.adminToken) throw new Error('Hosted mode needs an admin token (SANDBOX_ADMIN_TOKEN)');
  const weak = config.hosted && config.adminToken ? weakSecretProblem('SANDBOX_ADMIN_TOKEN', config.adminToken) : undefined;
  if (weak) throw new Error(weak);
  return {
    hosted:
      config.hosted && config.adminToken !== undefined
        ? { adminToken: config.adminToken, adminAttempts: new AdminAttempts(config.adminAttemptsPerHour ?? DEFAULT_ADMIN_ATTEMPTS) }
        : undefined,
    creationLimit: config.workspaceCreatePerMinute === undefined ? undefined : new CreationLimit(config.workspaceCreatePerMinute),
  };
}
