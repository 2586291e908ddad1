// `/` is where someone lands after `npx` prints a URL: it should say what this is and where to go next,
// without needing the README open.
import { Router } from 'express';
import { escapeHtml } from '../http/escape-html.js';

/** A demo login the landing page lists, e.g. { label: 'owner of Demo Outfitters', token: 'demo-owner-token' }. */
export interface DemoToken {
  label: string;
  token: string;
}

/** What the landing page shows. */
export interface LandingPageOptions {
  demoTokens?: DemoToken[];
  /** Shown in the heading, e.g. the package version. */
  version?: string;
  /** The token /docs authorizes with on first load, shown in clear so a reader knows who "Try it out" acts as. */
  docsToken?: DemoToken;
  /**
   * Hosted mode: the demo tokens answer 401 there, so the page names none; the docs page makes each tab's workspace
   * and shows its token.
   */
  hosted?: boolean;
}

function docsStep(options: LandingPageOptions): string {
  if (options.hosted) {
    return `"Try it out" works in a workspace of this browser tab's own, which the docs create and authorize with its
      owner token (shown at the top of the docs page). Nobody else sees it.`;
  }
  return options.docsToken
    ? `"Try it out" is already authorized as <code>${escapeHtml(options.docsToken.token)}</code> (${escapeHtml(options.docsToken.label)}),
      and every id is filled in with one of the demo world's, so <b>Try it out</b> then <b>Execute</b> works on any operation.`
    : 'press <b>Authorize</b> and paste a token.';
}

/** The landing page as HTML; pure so it can be tested without a server. */
export function landingPageHtml(options: LandingPageOptions = {}): string {
  const tokens = (options.hosted ? [] : (options.demoTokens ?? []))
    .map((t) => `<li><code>${escapeHtml(t.token)}</code> — ${escapeHtml(t.label)}</li>`)
    .join('\n        ');
  const version = options.version ? ` <small>v${escapeHtml(options.version)}</small>` : '';
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Commerce Operations API sandbox</title>
  <style>
    body { font: 16px/1.55 system-ui, sans-serif; max-width: 46rem; margin: 2rem auto; padding: 0 1rem; color: #222; }
    code { background: #f2f2f2; padding: 0 .3em; border-radius: 3px; }
    nav a { margin-right: 1.2em; }
  </style>
</head>
<body>
  <h1>Commerce Operations API sandbox${version}</h1>
  <p>A local, stateful stand-in for the Commerce Operations API <code>2024-09</code>. Every request and every answer is
    checked against the contract, so a client that works here speaks the real API's language.</p>
  <nav>
    <a href="docs/">API docs (try it out)</a>
    <a href="_sandbox/inspector">Request inspector</a>
    <a href="_sandbox/health">Health</a>
    <a href="openapi.yaml">openapi.yaml</a>
    <a href="openapi.json">openapi.json</a>
  </nav>
  <h2>Workflow</h2>
  <ol>
    <li>Open the <a href="docs/">docs</a>: ${docsStep(options)} <b>Authorize</b> switches to another token.</li>
    <li>From code, send <code>Authorization: Bearer &lt;token&gt;</code> to the versioned paths
      (<code>/2024-09/...</code>). Changes are kept: what you create, you can read back.</li>
    <li>In CI, wait for <a href="_sandbox/health"><code>/_sandbox/health</code></a> to answer 200, create an isolated
      workspace per job, and read the request journal and coverage under <code>/_sandbox</code> afterwards.</li>
    <li>See what happened, and why: the <a href="_sandbox/inspector">request inspector</a> lists every request with the
      check that answered it, and the contract coverage as a grid.</li>
    <li>Steer answers with <code>Prefer: code=404</code> or <code>Prefer: delay=250</code>;
      start over with <code>POST /_sandbox/reset</code>.</li>
  </ol>
  ${tokens ? `<h2>Demo tokens</h2>\n  <ul>\n        ${tokens}\n  </ul>` : ''}
  <p>The README and its docs/ folder explain every option, knob and control-plane endpoint.</p>
</body>
</html>
`;
}

/** Serves the landing page at `/` (GET and HEAD). */
export function landingRouter(options: LandingPageOptions = {}): Router {
  // Written when first asked for: the API answers without it.
  let html: string | undefined;
  const router = Router({ caseSensitive: true });
  router.get('/', (_req, res) => {
    res.type('html').send((html ??= landingPageHtml(options)));
  });
  return router;
}
