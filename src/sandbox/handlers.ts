import type { Handlers } from '../areas/handler-map.js';
import { bundleHandlers } from './bundle-handlers.js';
import { inspectorHandlers } from './inspector/inspector-page.js';
import { journalHandlers } from './journal-handlers.js';
import { workspaceHandlers } from './workspace-handlers.js';
import { worldHandlers } from './world-handlers.js';

export { newToken } from './world-handlers.js';

/** The sandbox control plane (tag Sandbox): health, users, reset, clock, workspaces, journal, coverage and the inspector page. */
export const sandboxHandlers = {
  ...worldHandlers,
  ...workspaceHandlers,
  ...journalHandlers,
  ...bundleHandlers,
  ...inspectorHandlers,
} satisfies Partial<Handlers>;
