import type { Request } from 'express';

// A Host header is client-controlled; only a plain host[:port] may end up in a link or a served document.
const SAFE_HOST = /^[A-Za-z0-9.-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/;

/**
 * The origin the request was addressed to (honours Express's trust-proxy setting for the scheme), so absolute
 * links and the served contract point back at the address the client used; undefined for a Host that is not a
 * plain host[:port].
 */
export function requestOrigin(req: Request): string | undefined {
  const host = req.get('host');
  if (!host || !SAFE_HOST.test(host)) return undefined;
  return `${req.protocol}://${host}`;
}
