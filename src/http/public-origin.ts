// The origin absolute URLs point at (links, the consent URL and its redirect, image URLs, the served contract's
// server). Hosted, it is configuration (PUBLIC_URL): Host and X-Forwarded-Host are whatever a client writes, and a
// link built from them would send another visitor's browser, with its single-use codes, to the writer's server.
// Locally the request's own origin is kept, so a laptop's sandbox answers on whatever address it was reached by.
import type { Request } from 'express';
import type { Config } from '../config.js';

/** The origin of a request's absolute URLs; undefined when none can be told (a Host that is not a plain host[:port]). */
export type OriginOf = (req: Request) => string | undefined;

/** The origin of absolute URLs a configuration asks for: PUBLIC_URL when set (always in hosted mode), else the request's. */
export function publicOrigin(config: Pick<Config, 'hosted' | 'publicUrl'>): OriginOf {
  if (config.hosted && !config.publicUrl) throw new Error('Hosted mode needs its public origin (PUBLIC_URL)');
  const configured = config.publicUrl;
  return configured ? () => configured : requestOrigin;
}

// A Host header is client-controlled; only a plain host[:port] may end up in a link or a served document.
const SAFE_HOST = /^[A-Za-z0-9.-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/;

/**
 * The origin the request was addressed to, so absolute links and the served contract point back at the address the
 * client used. Express's `trust proxy` setting decides whether X-Forwarded-Proto and X-Forwarded-Host count (req.protocol,
 * req.host); undefined for a host that is not a plain host[:port], or that no URL can have (port 99999, `[1.2.3.4]`),
 * and for a scheme other than http or https: links are built by parsing the origin, and the contract's are web URLs.
 */
export function requestOrigin(req: Request): string | undefined {
  const host = req.host;
  // Behind a trusted proxy the scheme is X-Forwarded-Proto as written: only the web's two schemes make a link.
  const scheme = req.protocol.toLowerCase();
  if (!host || !SAFE_HOST.test(host) || (scheme !== 'http' && scheme !== 'https')) return undefined;
  const origin = `${scheme}://${host}`;
  return URL.canParse(origin) ? origin : undefined;
}
