// The inspector page's script and style sheet, served beside it (`inspector/inspector.js` relative to the page, so
// a path prefix in front of the sandbox keeps working). Tooling files like the docs page's assets: not operations,
// not journaled; revalidated by ETag, so a reload costs a 304.
import { createHash } from 'node:crypto';
import type { RequestHandler } from 'express';
import { REQUIRE_FILE_SOURCE } from '../../observe/require-file.js';
import { INSPECTOR_SCRIPT } from './inspector-script.js';
import { INSPECTOR_STYLE } from './inspector-style.js';

interface Asset {
  type: string;
  body: Buffer;
  etag: string;
}

const asset = (type: string, text: string): Asset => {
  const body = Buffer.from(text);
  return { type, body, etag: `"${createHash('sha256').update(body).digest('hex').slice(0, 16)}"` };
};

/**
 * The script is one strict-mode function over the page: the --require grammar the CLI's gate uses (its own source
 * text, src/observe/require-file.ts) and then the page's code. Run from sources (tsx), that text names its inner
 * functions through esbuild's `__name` helper, which the browser lacks: the script brings a stand-in.
 */
export const inspectorScript = (): string =>
  `(function () {\n'use strict';\nvar __name = function (fn) { return fn; };\n${REQUIRE_FILE_SOURCE}${INSPECTOR_SCRIPT}\n})();\n`;

/** GET/HEAD /_sandbox/inspector/inspector.js and inspector.css. */
export function inspectorAssets(): RequestHandler {
  // Made by the first request that reaches this layer (a tooling page's), not at start: the API answers without them.
  let assets: Map<string, Asset> | undefined;
  const made = () =>
    new Map<string, Asset>([
      ['/_sandbox/inspector/inspector.js', asset('text/javascript; charset=utf-8', inspectorScript())],
      ['/_sandbox/inspector/inspector.css', asset('text/css; charset=utf-8', INSPECTOR_STYLE)],
    ]);
  return (req, res, next) => {
    const found = (assets ??= made()).get(req.path);
    if (!found || (req.method !== 'GET' && req.method !== 'HEAD')) return next();
    res.set({ 'Content-Type': found.type, 'Cache-Control': 'no-cache', ETag: found.etag });
    if (req.fresh) res.status(304).end();
    else res.end(req.method === 'HEAD' ? undefined : found.body);
  };
}
