// Headers every answer carries, set by helmet: `X-Content-Type-Options: nosniff` (a browser never reads an uploaded
// file or a JSON answer as HTML or script), and frame protection (`frame-ancestors 'none'`, with X-Frame-Options
// for browsers that predate it), so no other site can frame a page and trick a click on its buttons (the consent
// page's Approve). The pages' own policy allows their scripts and styles from this origin only; the docs page
// widens it with the hashes of its inline scripts (docsPagePolicy).
import { createHash } from 'node:crypto';
import type { RequestHandler } from 'express';
import helmet from 'helmet';
import { fixedHeaders } from './header-sets.js';

type Directives = Record<string, string[]>;

// Images may come from anywhere (product images are URLs of the client's choosing) and as data: URIs (Swagger UI's
// icons); styles may be inline (the pages' <style>, Swagger UI's style attributes); nothing else leaves the origin.
const PAGE_DIRECTIVES: Directives = {
  'default-src': ["'self'"],
  'base-uri': ["'self'"],
  'object-src': ["'none'"],
  'frame-ancestors': ["'none'"],
  'img-src': ["'self'", 'data:', 'https:'],
  'style-src': ["'self'", "'unsafe-inline'"],
  'script-src': ["'self'"],
};

/**
 * helmet with the headers above and nothing else (HSTS, COOP, CORP and the rest are a deployment's choice). Its
 * headers depend on no request: helmet works them out once and each answer gets them (src/http/header-sets.ts).
 */
function helmetWith(directives: Directives): RequestHandler {
  return fixedHeaders(helmetOf(directives));
}

function helmetOf(directives: Directives): RequestHandler {
  return helmet({
    contentSecurityPolicy: { useDefaults: false, directives },
    xContentTypeOptions: true,
    xFrameOptions: { action: 'deny' },
    crossOriginEmbedderPolicy: false,
    crossOriginOpenerPolicy: false,
    crossOriginResourcePolicy: false,
    originAgentCluster: false,
    referrerPolicy: false,
    strictTransportSecurity: false,
    xDnsPrefetchControl: false,
    xDownloadOptions: false,
    xPermittedCrossDomainPolicies: false,
    xXssProtection: false,
  }) as unknown as RequestHandler;
}

/** The headers of every answer (the app's first layer after the request id). */
export const securityHeaders = (): RequestHandler => helmetWith(PAGE_DIRECTIVES);

/**
 * The docs page's policy: the common one, with the hashes of the inline scripts Swagger UI's page carries (the
 * settings and banner), so those run and no other inline script does.
 */
export function docsPagePolicy(inlineScripts: readonly string[]): RequestHandler {
  const hashes = inlineScripts.map((source) => `'sha256-${createHash('sha256').update(source).digest('base64')}'`);
  return helmetWith({ ...PAGE_DIRECTIVES, 'script-src': [...PAGE_DIRECTIVES['script-src']!, ...hashes] });
}
