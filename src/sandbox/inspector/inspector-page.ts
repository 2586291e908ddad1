// The request inspector (GET /_sandbox/inspector): one HTML page, its script and its style sheet, all served by the
// sandbox itself (no CDN, no framework), so it works offline and under the pages' policy: scripts and styles from
// this origin only, no inline script, no framing (src/http/security-headers.ts).
import type { Handlers } from '../../areas/handler-map.js';
import { text } from '../../http/reply.js';
import { escapeHtml } from '../../http/escape-html.js';
import { DEMO_USERS } from '../demo-tokens.js';

/** What the page needs to know of the server it came from. */
export interface InspectorPageOptions {
  /** Hosted mode: the page shows the tab's own workspace only, through its token. */
  hosted: boolean;
  /** Locally, the token "send again" uses in the default world by default (a demo token, public there). */
  demoToken?: string;
  /**
   * The page was asked for as `/_sandbox/inspector/` (the route matches it too): its links, assets and the script's
   * reads (`requests?`, `coverage?`) are relative to `/_sandbox/inspector`, so the page names that as its base.
   */
  trailingSlash?: boolean;
}

const STATUS_CLASSES = ['2xx', '3xx', '4xx', '5xx'];
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD'];
const options = (values: readonly string[]) => values.map((v) => `<option value="${v}">${v}</option>`).join('');

/** The page as HTML; pure, so tests read it without a server. Its settings ride in data- attributes, not a script. */
export function inspectorPageHtml({ hosted, demoToken, trailingSlash }: InspectorPageOptions): string {
  const data = `data-hosted="${hosted}"${!hosted && demoToken ? ` data-demo-token="${escapeHtml(demoToken)}"` : ''}`;
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Request inspector · Commerce Operations API sandbox</title>
${trailingSlash ? '  <base href="../inspector">\n' : ''}  <link rel="stylesheet" href="inspector/inspector.css">
  <script src="inspector/inspector.js" defer></script>
</head>
<body ${data}>
  <header>
    <h1>Request inspector</h1>
    <nav aria-label="Views">
      <a href="#journal" id="to-journal">Journal</a>
      <a href="#coverage" id="to-coverage">Coverage</a>
      <a href="../docs/">API docs</a>
      <a href="../">Home</a>
    </nav>
    <div class="world">
      <label for="world">World</label>
      <select id="world"${hosted ? ' disabled' : ''}>${hosted ? '<option value="">this tab’s workspace</option>' : '<option value="">every world</option><option value="default">the default world</option>'}</select>
      <label for="token">Token of this tab</label>
      <input id="token" type="password" autocomplete="off" spellcheck="false" placeholder="${hosted ? 'the workspace token the docs made for this tab' : 'used by “send again”'}">
      ${hosted ? '<button type="button" id="new-workspace">Make a workspace for this tab</button>' : ''}
      <span id="poll-status" role="status"></span>
    </div>
  </header>
  <main>
    <section id="journal-view" aria-labelledby="journal-heading">
      <h2 id="journal-heading">Journal</h2>
      <form id="filters" aria-label="Filters">
        <label>Status <select name="status"><option value="">any</option>${options(STATUS_CLASSES)}</select></label>
        <label>Operation <input name="operation" list="operations" autocomplete="off" spellcheck="false"></label>
        <datalist id="operations"></datalist>
        <label>Method <select name="method"><option value="">any</option>${options(METHODS)}</select></label>
        <label>Path starts with <input name="path" autocomplete="off" spellcheck="false" placeholder="/2024-09/products"></label>
        <label>Order <select name="order"><option value="newest">newest first</option><option value="failed">failed first</option></select></label>
      </form>
      <p id="loaded-note" hidden></p>
      <p id="gap-note" role="status" hidden><span id="gap-text"></span>
        <button type="button" id="reread">Read the journal again</button></p>
      <div class="split">
        <div class="list">
          <table id="journal">
            <caption id="journal-caption">No requests yet.</caption>
            <thead><tr><th scope="col">Status</th><th scope="col">Request</th><th scope="col">Operation</th><th scope="col">At</th></tr></thead>
            <tbody></tbody>
          </table>
        </div>
        <section id="detail" aria-labelledby="detail-heading" tabindex="-1">
          <h2 id="detail-heading">Entry</h2>
          <p>Open an entry of the journal (Enter on its row; ↑ and ↓ move between rows).</p>
        </section>
      </div>
    </section>
    <section id="coverage-view" aria-labelledby="coverage-heading" hidden>
      <h2 id="coverage-heading">Coverage</h2>
      <p id="coverage-totals"></p>
      <p class="muted">✓ exercised (opens its entries) · ✗ documented, not exercised · P only forced with <code>Prefer: code=</code>
        · ! answered but not documented · outlined: a pair the <code>--require</code> file names.</p>
      <details id="require">
        <summary>Pairs a <code>--require</code> file names</summary>
        <label for="require-text">The file's lines (<code>getProduct 404</code>, <code>* 422</code>)</label>
        <textarea id="require-text" rows="5" spellcheck="false"></textarea>
        <label for="require-file">or the file itself</label>
        <input id="require-file" type="file" accept=".txt,text/plain">
      </details>
      <p id="gate" role="status"></p>
      <div id="grid"></div>
    </section>
  </main>
</body>
</html>
`;
}

/** The page's handler (a few kilobytes of text, built per request like any other answer). */
export const inspectorHandlers = {
  getSandboxInspector: (_input, ctx) =>
    text(
      200,
      'text/html',
      inspectorPageHtml({ hosted: ctx.config.hosted, demoToken: DEMO_USERS[0].token, trailingSlash: ctx.url.split('?', 1)[0]!.endsWith('/') }),
    ),
} satisfies Partial<Handlers>;
