/** The demo users every world is seeded with, by role: the tokens the docs, the landing page and startSandbox hand out. */
export const DEMO_USERS = [
  { role: 'owner', token: 'demo-owner-token', label: 'owner of Demo Outfitters' },
  { role: 'member', token: 'demo-member-token', label: 'member of Demo Outfitters' },
  { role: 'outsider', token: 'demo-outsider-token', label: 'a user with no merchant' },
  { role: 'rival', token: 'demo-rival-token', label: 'owner of Rival Goods' },
] as const;

/** One of the demo roles. */
export type DemoRole = (typeof DEMO_USERS)[number]['role'];

/** A world's demo tokens by role: its own names for them (a workspace's), or the fixed ones (the default world). */
export function demoTokens(seedTokens?: Readonly<Record<string, string>>): Record<DemoRole, string> {
  return Object.fromEntries(DEMO_USERS.map((u) => [u.role, seedTokens ? seedTokens[u.token] : u.token])) as Record<DemoRole, string>;
}
