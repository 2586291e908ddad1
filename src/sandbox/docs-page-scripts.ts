// What the docs page runs in the browser, as source text: Swagger UI receives functions built with new Function, so
// the code it runs is exactly this text, untouched by the TypeScript transpiler (whose helpers do not exist there).
// Each reads the page's settings from window.__sandboxDocs ({ token, scheme, hosted }).

/**
 * A Swagger UI plugin: the contract Try it out works from. Only required parameters are filled in: an optional
 * parameter's example and default move into its description (a list then shows every record, not the one its
 * filter examples name). In hosted mode, where the demo tokens answer 401, every text names this tab's workspace
 * tokens instead (the banner shows the token itself); window.__sandboxRerender redraws the contract once the tab's
 * workspace is known.
 */
export const TRY_IT_SPEC_PLUGIN = `
  var demo = window.__sandboxDocs || {};
  var raw = null;
  var METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'];
  var shown = function (value) { return typeof value === 'string' ? value : JSON.stringify(value); };
  var unfill = function (param) {
    if (!param || param.$ref || param.required) return;
    var notes = [];
    if (param.example !== undefined) { notes.push('Example: \`' + shown(param.example) + '\`'); delete param.example; }
    if (param.schema && param.schema.example !== undefined) delete param.schema.example;
    if (param.schema && param.schema.default !== undefined) { notes.push('Default: \`' + shown(param.schema.default) + '\`'); delete param.schema.default; }
    if (notes.length) param.description = (param.description ? param.description + '\\n\\n' : '') + notes.join('. ') + '.';
  };
  var tryItSpec = function (text) {
    var doc;
    try { doc = JSON.parse(text); } catch (e) { return text; }
    var shared = (doc.components && doc.components.parameters) || {};
    var ws = window.__sandboxWorkspace;
    Object.keys(shared).forEach(function (name) {
      // A tab in a workspace of its own names that workspace where the contract's example names \`default\`.
      if (ws && shared[name].in === 'path' && shared[name].name === 'workspace') shared[name].example = ws.id;
      unfill(shared[name]);
    });
    Object.keys(doc.paths || {}).forEach(function (path) {
      var item = doc.paths[path];
      (item.parameters || []).forEach(unfill);
      METHODS.forEach(function (method) { if (item[method]) (item[method].parameters || []).forEach(unfill); });
    });
    var out = JSON.stringify(doc);
    if (!demo.hosted) return out;
    // A demo token on its own (not the tail of a workspace token) becomes this tab's token of the same role.
    return out.replace(/(^|[^.\\w-])demo-(owner|member|outsider|rival)-token/g, function (all, before, role) {
      return before + (ws ? ws.tokens[role] : 'the ' + role + ' token of this tab\\u2019s workspace');
    });
  };
  // Called once the page is up (window.ui exists by then): the system a plugin receives is not complete yet.
  window.__sandboxRerender = function () { if (raw !== null && window.ui) window.ui.specActions.updateSpec(raw); };
  return {
    statePlugins: {
      spec: {
        wrapActions: {
          updateSpec: function (original) {
            return function (text) {
              if (typeof text !== 'string') return original(text);
              raw = text;
              return original(tryItSpec(text));
            };
          },
        },
      },
    },
  };
`;

/** Swagger UI's own plugin that loads the contract from `url` (listing plugins replaces its default list). */
export const DOWNLOAD_URL_PLUGIN = 'return SwaggerUIBundle.plugins.DownloadUrl(system);';

/**
 * Shared by both modes: this tab's workspace (window.__sandboxWorkspace) kept in sessionStorage while the sandbox
 * still knows it, else a new one; sandboxWorld.reset() puts the world Try it out acts on back to its seeded state.
 */
const WORKSPACE_HELPERS = `
  var demo = window.__sandboxDocs || {};
  var KEY = 'sandbox-workspace';
  var text = function (id, value) { var el = document.getElementById(id); if (el) el.textContent = value; };
  var showActive = function () {
    var value = window.ui.authSelectors.authorized().getIn([demo.scheme, 'value']);
    text('sandbox-active-token', value || 'no token');
  };
  window.ui.getStore().subscribe(showActive);
  var create = function () {
    return fetch('../_sandbox/workspaces', { method: 'POST' }).then(function (res) {
      return res.json().then(function (body) {
        if (!res.ok) throw new Error(body.message || ('HTTP ' + res.status));
        sessionStorage.setItem(KEY, JSON.stringify(body.data));
        return body.data;
      });
    });
  };
  var ownWorkspace = function () {
    var kept = null;
    try { kept = JSON.parse(sessionStorage.getItem(KEY) || 'null'); } catch (e) { kept = null; }
    return kept && kept.tokens
      ? fetch('../_sandbox/clock', { headers: { Authorization: 'Bearer ' + kept.tokens.owner } }).then(function (res) { return res.ok ? kept : create(); })
      : create();
  };
  var useWorkspace = function (ws) {
    window.__sandboxWorkspace = ws;
    window.ui.preauthorizeApiKey(demo.scheme, ws.tokens.owner);
    text('sandbox-workspace', ws.id);
    text('sandbox-expires', 'at ' + new Date(Date.now() + ws.idle_ttl_seconds * 1000).toISOString() + ' unless used again (idle ' + Math.round(ws.idle_ttl_seconds / 60) + ' min)');
    document.body.setAttribute('data-sandbox-workspace', ws.id);
    if (window.__sandboxRerender) window.__sandboxRerender();
  };
  var resetWorld = function () {
    var ws = window.__sandboxWorkspace;
    // The default world is shared by every tab and client of this sandbox; a tab's own workspace is not.
    if (!ws && !window.confirm('Reset the default world? Every record created or changed in it, by any client, goes back to the seeded state.')) {
      text('sandbox-reset-status', 'Not reset.');
      return Promise.resolve();
    }
    text('sandbox-reset-status', 'Resetting\\u2026');
    return fetch('../_sandbox/reset', { method: 'POST', headers: ws ? { Authorization: 'Bearer ' + ws.tokens.owner } : {} }).then(function (res) {
      text('sandbox-reset-status', res.ok ? 'Reset to the seeded state.' : 'Reset failed (' + res.status + ').');
    }, function (error) { text('sandbox-reset-status', 'Reset failed (' + error.message + ').'); });
  };
  var button = document.getElementById('sandbox-reset');
  if (button) button.addEventListener('click', resetWorld);
`;

/**
 * Local mode: a switch chooses the world Try it out acts on, kept per tab: the default world (the first choice,
 * where the reader's own calls live) with the demo token, or a throw-away workspace of this tab with its owner
 * token. A token the reader authorized earlier (persistAuthorization keeps it in localStorage) wins over the demo
 * token in the default world, unless it is a workspace's.
 */
export const LOCAL_SOURCE = `
  if (!window.ui) return;
  ${WORKSPACE_HELPERS}
  var MODE = 'sandbox-world';
  var useDefault = function () {
    window.__sandboxWorkspace = null;
    document.body.removeAttribute('data-sandbox-workspace');
    text('sandbox-workspace', '');
    var saved = null;
    try { saved = JSON.parse(window.localStorage.getItem('authorized') || 'null'); } catch (e) { saved = null; }
    var value = saved && saved[demo.scheme] && saved[demo.scheme].value;
    if (demo.token && (!value || /^ws_/.test(value))) window.ui.preauthorizeApiKey(demo.scheme, demo.token);
    document.body.setAttribute('data-sandbox-world', 'default');
  };
  var choose = function (mode) {
    sessionStorage.setItem(MODE, mode);
    text('sandbox-reset-status', '');
    if (mode !== 'workspace') return useDefault();
    text('sandbox-workspace', '(creating\\u2026)');
    return ownWorkspace().then(function (ws) {
      useWorkspace(ws);
      document.body.setAttribute('data-sandbox-world', 'workspace');
    }, function (error) { text('sandbox-workspace', 'none: ' + error.message); });
  };
  var mode = sessionStorage.getItem(MODE) === 'workspace' ? 'workspace' : 'default';
  var radios = document.querySelectorAll('input[name="sandbox-world"]');
  Array.prototype.forEach.call(radios, function (radio) {
    radio.checked = radio.value === mode;
    radio.addEventListener('change', function () { if (radio.checked) choose(radio.value); });
  });
  choose(mode);
  showActive();
`;

/**
 * Hosted mode: each tab works in a workspace of its own (created on load, or the one kept in sessionStorage while
 * it is alive), whose owner token is authorized.
 */
export const HOSTED_SOURCE = `
  if (!window.ui) return;
  ${WORKSPACE_HELPERS}
  ownWorkspace().then(useWorkspace, function (error) { text('sandbox-workspace', 'none: ' + error.message); });
  showActive();
`;

/** The control plane is unsecured in the contract, so Swagger UI sends no token: a tab in a workspace sends its own. */
export const CONTROL_PLANE_TOKEN_SOURCE = `
  var ws = window.__sandboxWorkspace;
  if (ws && req.url.indexOf('/_sandbox/') >= 0 && !req.headers.Authorization) req.headers.Authorization = 'Bearer ' + ws.tokens.owner;
  return req;
`;
