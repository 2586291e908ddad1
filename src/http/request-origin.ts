import type { Request } from 'express';

// A Host header is client-controlled; only a plain host[:port] may end up in a link or a served document.
const SAFE_HOST = /^[A-Za-z0-9.-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/;

/**
 * The origin the request was addressed to, so absolute links and the served contract point back at the address the
 * client used. Express's `trust proxy` setting decides whether X-Forwarded-Proto and X-Forwarded-Host count (req.protocol,
 * req.host); undefined for a host that is not a plain host[:port].
 */
export function requestOrigin(req: Request): string | undefined {
  const host = req.host;
  if (!host || !SAFE_HOST.test(host)) return undefined;
  return `${req.protocol}://${host}`;
}
