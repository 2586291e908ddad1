// The docs a reader opens first: Swagger UI over the contract this very server validates against, with
// "Try it out" aimed back at the same server and the demo token already in the Authorize dialog.
import { Router, type RequestHandler } from 'express';
import type { SwaggerUiOptions } from 'swagger-ui-express';
import { jsYaml } from '../contract/document/js-yaml.js';
import { escapeHtml } from '../http/escape-html.js';
import { requestOrigin } from '../http/public-origin.js';
import { CONTROL_PLANE_TOKEN_SOURCE, DOWNLOAD_URL_PLUGIN, HOSTED_SOURCE, LOCAL_SOURCE, TRY_IT_SPEC_PLUGIN } from './docs-page-scripts.js';
import type { OriginOf } from '../http/public-origin.js';
import { docsPagePolicy } from '../http/security-headers.js';

/** A parsed OpenAPI document; only `servers` is touched here. */
export type OpenApiDocument = Record<string, unknown>;

/** What docsRouter needs from the app. */
export interface DocsRouterOptions {
  /** The parsed contract (openapi.yaml); served as-is except for `servers`. */
  spec: OpenApiDocument;
  /** Token pre-filled into the Authorize dialog, e.g. 'demo-owner-token'; omit to leave it empty. */
  demoToken?: string;
  /** Name of the bearer scheme in components.securitySchemes. */
  securityScheme?: string;
  /** Tab title of the docs page. */
  title?: string;
  /**
   * Hosted mode: each browser tab gets its own workspace (created on load, or the one kept in sessionStorage while it
   * is alive), whose owner token is authorized; the banner shows it and offers "Reset my sandbox".
   */
  hosted?: boolean;
  /** The origin the served contract names as its server; by default the request's own. */
  originOf?: OriginOf;
}

// swagger-ui-express supports customJsStr but its published types lag behind.
type UiOptions = SwaggerUiOptions & { customJsStr?: string | string[] };

// js-yaml, the contract's own parser: no anchors for objects met twice (a reader gets the document as written), no
// folded lines; its default schema quotes any string a YAML 1.1 reader would take for a date or a boolean.
const toYaml = (value: unknown): string => jsYaml().dump(value, { noRefs: true, lineWidth: -1 });

const SERVER_DESCRIPTION = 'This sandbox: the address this document was fetched from.';

/** A copy of the contract whose only server is `origin`, so try-it calls the server that served it. */
export function specForOrigin(spec: OpenApiDocument, origin: string | undefined): OpenApiDocument {
  if (!origin) return spec;
  return { ...spec, servers: [{ url: origin, description: SERVER_DESCRIPTION }] };
}

// The served contract differs per origin only in its server URL: serialise it once (per format, on first use)
// with a placeholder origin and substitute the request's origin, so any Host costs one string replace.
const ORIGIN_PLACEHOLDER = 'http://sandbox-origin.invalid';

function specCache(spec: OpenApiDocument) {
  let json: string | undefined;
  let yaml: string | undefined;
  const withOrigin = (text: string, origin: string | undefined) => (origin ? text.split(ORIGIN_PLACEHOLDER).join(origin) : text);
  const template = () => specForOrigin(spec, ORIGIN_PLACEHOLDER);
  return (origin: string | undefined) => ({
    get json() {
      return origin ? withOrigin((json ??= JSON.stringify(template(), null, 2)), origin) : JSON.stringify(spec, null, 2);
    },
    get yaml() {
      return origin ? withOrigin((yaml ??= toYaml(template())), origin) : toYaml(spec);
    },
  });
}

// JSON inside an inline <script>: "</script>" or "<!--" in a value must not end the script.
function scriptLiteral(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028|\u2029/g, (c) => `\\u${c.charCodeAt(0).toString(16)}`);
}

function bannerHtml(demoToken: string | undefined): string {
  // The page keeps #sandbox-active-token in step with whatever the reader authorizes (LOCAL_SOURCE).
  return `<div class="sandbox-banner">
    <strong>Commerce Operations API sandbox.</strong>
    <b>Try it out</b> sends real requests to this sandbox, which keeps state and checks every request and answer against the contract.
    Try it out runs as <code id="sandbox-active-token">${demoToken ? escapeHtml(demoToken) : 'no token'}</code>;
    <b>Authorize</b> switches to another token (the demo tokens are listed in the API description below).
    <fieldset id="sandbox-world-switch"><legend>Try it out acts on</legend>
      <label><input type="radio" name="sandbox-world" value="default" checked> the default world, where your own calls live</label>
      <label><input type="radio" name="sandbox-world" value="workspace"> a throw-away workspace of this tab</label>
      <code id="sandbox-workspace"></code> <span id="sandbox-expires"></span>
    </fieldset>
    <button id="sandbox-reset" type="button">Reset</button> puts that world back to its seeded state. <span id="sandbox-reset-status"></span>
    The <code>/_sandbox</code> control plane (health, reset, journal, coverage) is under the <b>Sandbox</b> tag.
    What your calls did, and why: the <a href="../_sandbox/inspector">request inspector</a>.
    The contract: <a href="../openapi.yaml">openapi.yaml</a> · <a href="../openapi.json">openapi.json</a> · <a href="../">home</a>.
  </div>`;
}

function hostedBannerHtml(): string {
  return `<div class="sandbox-banner">
    <strong>Commerce Operations API sandbox.</strong>
    <b>Try it out</b> sends real requests to a sandbox world of this tab's own, which nobody else sees:
    workspace <code id="sandbox-workspace">(creating…)</code>, expires <span id="sandbox-expires">after an hour unused</span>.
    Try it out runs as <code id="sandbox-active-token">no token</code>.
    <button id="sandbox-reset" type="button">Reset my sandbox</button> <span id="sandbox-reset-status"></span>
    The <code>/_sandbox</code> control plane (reset, journal, coverage, clock) acts on this workspace.
    What this tab's calls did, and why: the <a href="../_sandbox/inspector">request inspector</a>.
    The contract: <a href="../openapi.yaml">openapi.yaml</a> · <a href="../openapi.json">openapi.json</a>.
  </div>`;
}

const BANNER_CSS = `
.sandbox-banner { font: 14px/1.5 sans-serif; background: #fff8e1; border-bottom: 1px solid #e0c97f; padding: 10px 20px; }
.sandbox-banner code { background: #f3ead0; padding: 0 4px; border-radius: 3px; }
.sandbox-banner fieldset { display: inline-block; border: 1px solid #e0c97f; margin: 4px 0; padding: 2px 8px; }
.sandbox-banner legend { font-weight: bold; padding: 0 4px; }
.swagger-ui .topbar { display: none; }
`;

/** Serves /docs (Swagger UI), /openapi.json and /openapi.yaml, each naming the requesting origin as server. */
export function docsRouter(options: DocsRouterOptions): Router {
  const {
    spec,
    demoToken,
    hosted = false,
    originOf = requestOrigin,
    securityScheme = 'bearerAuth',
    title = 'Commerce Operations API sandbox · docs',
  } = options;
  const router = Router({ caseSensitive: true });
  const specFor = specCache(spec);

  router.get('/openapi.json', (req, res) => {
    res
      .set('Cache-Control', 'no-cache')
      .type('application/json')
      .send(specFor(originOf(req)).json);
  });
  router.get('/openapi.yaml', (req, res) => {
    res
      .set('Cache-Control', 'no-cache')
      .type('application/yaml; charset=utf-8')
      .send(specFor(originOf(req)).yaml);
  });

  // The page's settings and policy are made with Swagger UI, by the first request for the page or its assets: the
  // API answers without them.
  const pageParts = () => {
    const inlineScripts = [
      `window.__sandboxDocs = ${scriptLiteral({ token: hosted ? null : (demoToken ?? null), scheme: securityScheme, hosted })};`,
      // The banner goes in before Swagger UI renders, above its root element.
      `document.getElementById('swagger-ui').insertAdjacentHTML('beforebegin', ${scriptLiteral(hosted ? hostedBannerHtml() : bannerHtml(demoToken))});`,
    ];
    // The page's policy lets exactly these inline scripts run (swagger-ui-express writes each as its own <script>).
    const pagePolicy = docsPagePolicy(inlineScripts);
    const uiOptions: UiOptions = {
      customSiteTitle: title,
      customCss: BANNER_CSS,
      customJsStr: inlineScripts,
      swaggerOptions: {
        // Relative to /docs/, so the page also works behind a path prefix.
        url: '../openapi.json',
        // No validator badge: it would send this sandbox's contract URL to a third party's validator service.
        validatorUrl: null,
        // Hosted, a token belongs to one tab (sessionStorage), never to every tab of the browser (localStorage).
        persistAuthorization: !hosted,
        // A tab in a workspace (always when hosted, by choice locally) sends its token to the control plane too.
        requestInterceptor: new Function('req', CONTROL_PLANE_TOKEN_SOURCE),
        plugins: [new Function('system', DOWNLOAD_URL_PLUGIN), new Function('system', TRY_IT_SPEC_PLUGIN)],
        displayOperationId: true,
        // The address names the operation open (#/<tag>/<operationId>): the inspector links a failed call's operation.
        deepLinking: true,
        displayRequestDuration: true,
        filter: true,
        docExpansion: 'list',
        tryItOutEnabled: false,
        onComplete: new Function(hosted ? HOSTED_SOURCE : LOCAL_SOURCE),
      },
    };
    return { pagePolicy, uiOptions };
  };

  // Swagger UI is loaded by the first request for the page or its assets, not by every start: the API answers
  // without it. serveFiles (not the shared `serve`) keeps this app's init script in its own closure, so two apps
  // in one process (tests, workspaces) never overwrite each other's Swagger UI settings.
  let ui: Promise<{ assets: Router; page: RequestHandler }> | undefined;
  const loadUi = () =>
    (ui ??= import('swagger-ui-express').then(({ default: swaggerUi }) => {
      const { pagePolicy, uiOptions } = pageParts();
      const assets = Router({ caseSensitive: true });
      assets.use(...swaggerUi.serveFiles(undefined, uiOptions));
      const setUp = swaggerUi.setup(null, uiOptions);
      const page: RequestHandler = (req, res, next) => pagePolicy(req, res, () => setUp(req, res, next));
      return { assets, page };
    }));
  const docsPage: RequestHandler = async (req, res, next) => {
    // The page loads its assets with "./", which only resolve under /docs/.
    const [path, query = ''] = req.originalUrl.split(/\?(.*)/s);
    if (!path!.endsWith('/')) {
      res.redirect(301, `${path}/${query ? `?${query}` : ''}`);
      return;
    }
    const { page } = await loadUi();
    page(req, res, next);
  };
  const assets: RequestHandler = async (req, res, next) => (await loadUi()).assets(req, res, next);

  // Non-strict routing: '/docs' matches '/docs/' too.
  router.get('/docs', docsPage);
  // swagger-ui-dist ships a petstore demo as index.html; keep readers on the sandbox's page.
  router.get('/docs/index.html', (_req, res) => res.redirect(301, './'));
  router.use('/docs', assets);
  return router;
}
