// The origin absolute URLs point at (links, the consent URL and its redirect, image URLs, the served contract's
// server). Hosted, it is configuration (PUBLIC_URL): Host and X-Forwarded-Host are whatever a client writes, and a
// link built from them would send another visitor's browser, with its single-use codes, to the writer's server.
// Locally the request's own origin is kept, so a laptop's sandbox answers on whatever address it was reached by.
import type { Request } from 'express';
import type { Config } from '../config.js';
import { requestOrigin } from './request-origin.js';

/** The origin of a request's absolute URLs; undefined when none can be told (a Host that is not a plain host[:port]). */
export type OriginOf = (req: Request) => string | undefined;

/** The origin of absolute URLs a configuration asks for: PUBLIC_URL when set (always in hosted mode), else the request's. */
export function publicOrigin(config: Pick<Config, 'hosted' | 'publicUrl'>): OriginOf {
  if (config.hosted && !config.publicUrl) throw new Error('Hosted mode needs its public origin (PUBLIC_URL)');
  const configured = config.publicUrl;
  return configured ? () => configured : requestOrigin;
}
