// What the inspector page runs in the browser, as source text (served as inspector.js after the --require grammar,
// see inspector-assets.ts): plain DOM code, no framework, no build step, so the browser runs exactly this text.
//
// It polls the journal rather than listening to server-sent events: the tab's token travels in the Authorization
// header, and an EventSource cannot send headers, so a hosted token would have to ride in the URL, where proxies'
// logs and the browser's history keep it. A poll asks only for what is newer than the newest entry it holds
// (`after=`) and sends the last ETag (`If-None-Match`), so an unchanged journal costs the server a 304. The list
// reads entries summed up (`fields=summary`: a products page's entry is about 17 KB whole, under 500 bytes summed
// up), so neither the sandbox nor the browser pays for bodies nobody opened; opening an entry reads it whole (`id=`).
export const INSPECTOR_SCRIPT = String.raw`
var body = document.body;
var HOSTED = body.getAttribute('data-hosted') === 'true';
var DEMO_TOKEN = body.getAttribute('data-demo-token') || '';
// The docs page keeps this tab's workspace (its id and tokens) under this sessionStorage key
// (src/sandbox/docs-page-scripts.ts): a tab that used /docs sees its own world here.
var KEY = 'sandbox-workspace';
var POLL_MS = 2000;
var FLOOD_POLL_MS = 10000;
var LIMIT = 1000;
// The sandbox's root as this page sees it (a path prefix in front of the sandbox is kept).
var BASE = location.pathname.replace(/\/_sandbox\/inspector\/?$/, '');
var $ = function (id) { return document.getElementById(id); };
var ENTITIES = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
var esc = function (v) { return String(v).replace(/[&<>"']/g, function (c) { return ENTITIES[c]; }); };
var code = function (v) { return '<code>' + esc(v) + '</code>'; };
var json = function (v) { return JSON.stringify(v, null, 2); };

var state = {
  entries: [], ids: new Set(), world: '', filters: { status: '', operation: '', method: '', path: '' },
  order: 'newest', orderChosen: false, selected: null, newest: null, etag: null, etagUrl: null,
  gen: 0, timer: null, inFlight: false, again: false, pendingSelect: null, coverage: null, tagOf: {},
  view: 'journal', worlds: new Set(), painted: false, renderGen: 0,
};

function keptWorkspace() {
  try {
    var kept = JSON.parse(sessionStorage.getItem(KEY) || 'null');
    return kept && kept.tokens && kept.id ? kept : null;
  } catch (e) { return null; }
}

// A poll that finds nothing new writes nothing: no layout, no paint, nothing for a screen reader to announce.
function setStatus(text) { var el = $('poll-status'); if (el.textContent !== text) el.textContent = text; }

/** The token this tab acts with in a world: the one typed in, else the docs' workspace of this tab, else (locally, in the default world) the demo token. */
function tokenFor(world) {
  var typed = $('token').value.trim();
  if (typed) return typed;
  var kept = keptWorkspace();
  if (kept && (HOSTED || world === kept.id)) return kept.tokens.owner;
  if (!HOSTED && (world === 'default' || world === '')) return DEMO_TOKEN;
  return '';
}

/** Hosted, every read carries the tab's token (its workspace decides what it sees); locally the query names the world. */
function readHeaders() {
  var headers = { Accept: 'application/json' };
  if (HOSTED) {
    var token = tokenFor('');
    if (token) headers.Authorization = 'Bearer ' + token;
  }
  return headers;
}

// ---- the journal ----

function journalQuery() {
  var q = new URLSearchParams();
  q.set('fields', 'summary');
  q.set('limit', String(LIMIT));
  if (!HOSTED && state.world) q.set('workspace', state.world);
  var f = state.filters;
  if (f.status) q.set('status', f.status);
  if (f.operation) q.set('operation_id', f.operation);
  if (f.method) q.set('method', f.method);
  if (f.path) q.set('path', f.path + '*');
  return q;
}

function schedule() {
  clearTimeout(state.timer);
  // A tab in the background reads nothing: it catches up once shown again.
  // Under a flood (the last poll came back full) it reads every FLOOD_POLL_MS: a person cannot follow hundreds of
  // requests a second, and a full read costs the server its serialisation each time.
  state.timer = setTimeout(function () { if (document.hidden) state.paused = true; else poll('newer'); }, state.flood ? FLOOD_POLL_MS : POLL_MS);
}
document.addEventListener('visibilitychange', function () {
  if (!document.hidden && state.paused) { state.paused = false; poll('newer'); }
});

// A change of world or filters reads the newest entries first (a screenful, quickly painted) and then the rest; a
// poll reads at most POLL_LIMIT entries newer than the newest held. Under a flood of requests a poll may find more
// than that: the page lists the newest and says that it skipped some (a person cannot read hundreds a second, and
// reading them all every two seconds would cost the server and the browser what the flood already does).
var FIRST_READ = 100;
var POLL_LIMIT = 100;
var RANK = { newer: 0, whole: 1, first: 2 };

/** Reads the journal: 'first' (a screenful) then 'whole' after a change of world or filters, else 'newer' entries only. */
function poll(mode) {
  if (state.inFlight) {
    if (!state.again || RANK[mode] > RANK[state.again]) state.again = mode;
    return Promise.resolve();
  }
  var headers = readHeaders();
  if (HOSTED && !headers.Authorization) {
    setStatus('No workspace for this tab yet: open the API docs in this tab (they make one), paste a workspace token, or make one here.');
    schedule();
    return Promise.resolve();
  }
  var gen = state.gen;
  var since = state.entries.length ? state.entries[0].at : null;
  var q = journalQuery();
  q.set('limit', String(mode === 'first' ? FIRST_READ : mode === 'whole' ? LIMIT : POLL_LIMIT));
  if (mode === 'newer' && state.newest) q.set('after', state.newest);
  var url = 'requests?' + q.toString();
  if (mode === 'newer' && state.etag && state.etagUrl === url) headers['If-None-Match'] = state.etag;
  state.inFlight = true;
  return fetch(url, { headers: headers, cache: 'no-store' })
    .then(function (res) {
      if (gen !== state.gen) return;
      if (res.status === 304) {
        if (!state.upToDate) setStatus(state.entries.length + ' entries, up to date since ' + new Date().toLocaleTimeString() + '.');
        state.flood = false;
        state.upToDate = true;
        return;
      }
      state.upToDate = false;
      return res.json().then(function (answer) {
        if (gen !== state.gen) return;
        if (!res.ok) { setStatus('The journal answered ' + res.status + ': ' + (answer.message || '')); return; }
        state.etag = res.headers.get('ETag');
        state.etagUrl = url;
        var whole = mode !== 'newer';
        var fresh = whole ? replaceEntries(answer.data) : mergeEntries(answer.data);
        var partial = mode === 'first' && answer.data.length === FIRST_READ;
        if (partial && !state.again) state.again = 'whole';
        state.flood = mode === 'newer' && answer.data.length === POLL_LIMIT;
        if (mode === 'newer' && answer.unlisted > 0) noteSkipped(answer.unlisted, since);
        if (whole) { state.skipped = 0; $('gap-note').hidden = true; }
        setStatus(state.entries.length + ' entries (polled ' + new Date().toLocaleTimeString() + ')');
        if (whole || (fresh.length && state.order !== 'newest')) renderList(partial);
        else if (fresh.length) prependRows(fresh);
        if ((whole || fresh.length) && state.view === 'coverage') loadCoverage();
      });
    })
    .catch(function (error) { setStatus('The journal is unreachable: ' + error.message); })
    .then(function () {
      state.inFlight = false;
      var again = state.again;
      state.again = false;
      if (again && gen === state.gen) return poll(again);
      if (again) return poll(again === 'newer' ? 'first' : again);
      schedule();
    });
}

/** Under a flood a poll lists the newest entries only: the page says how many it skipped, and reads them on demand. */
function noteSkipped(count, since) {
  state.skipped = (state.skipped || 0) + count;
  var at = typeof since === 'string' ? since.slice(11, 19) + ' UTC' : 'the last read';
  $('gap-text').textContent = state.skipped.toLocaleString('en-US') + ' more requests since ' + at + ' are not listed: each read lists the newest ' + POLL_LIMIT + '.';
  $('gap-note').hidden = false;
}

function noteWorlds(list) {
  if (HOSTED) return;
  var select = $('world');
  list.forEach(function (e) {
    if (!e.workspace || e.workspace === 'default' || state.worlds.has(e.workspace)) return;
    state.worlds.add(e.workspace);
    var option = document.createElement('option');
    option.value = e.workspace;
    option.textContent = 'workspace ' + e.workspace;
    select.appendChild(option);
  });
}

function replaceEntries(list) {
  state.entries = list.slice(0, LIMIT);
  state.ids = new Set(state.entries.map(function (e) { return e.id; }));
  state.newest = state.entries.length ? state.entries[0].id : null;
  noteWorlds(state.entries);
  var loaded = state.entries.filter(function (e) { return e.loaded; }).length;
  // A world loaded from a CI run's bundle opens on that run: its failed calls first.
  if (loaded && !state.orderChosen) { state.order = 'failed'; document.querySelector('[name=order]').value = 'failed'; }
  var note = $('loaded-note');
  note.hidden = loaded === 0;
  note.textContent = loaded
    ? loaded + ' entries came with a loaded run (marked “loaded”); ' + state.entries.filter(failed).length + ' failed calls are listed first while the order is “failed first”.'
    : '';
  return state.entries;
}

function mergeEntries(list) {
  var fresh = list.filter(function (e) { return !state.ids.has(e.id); });
  if (fresh.length === 0) return fresh;
  fresh.forEach(function (e) { state.ids.add(e.id); });
  state.entries = fresh.concat(state.entries);
  if (state.entries.length > LIMIT) {
    state.entries.slice(LIMIT).forEach(function (e) { state.ids.delete(e.id); });
    state.entries.length = LIMIT;
  }
  state.newest = state.entries[0].id;
  noteWorlds(fresh);
  return fresh;
}

function failed(e) { return e.status >= 400 || e.response_check === 'failed'; }

function shownEntries() {
  if (state.order !== 'failed') return state.entries;
  return state.entries.filter(failed).concat(state.entries.filter(function (e) { return !failed(e); }));
}

function statusClass(status) { return 's' + String(status).charAt(0); }

function rowHtml(e) {
  var query = e.query && Object.keys(e.query).length ? '?' + new URLSearchParams(flatQuery(e.query)).toString() : '';
  var at = typeof e.at === 'string' ? e.at.slice(11, 23) : '';
  return '<tr data-id="' + esc(e.id) + '" class="' + (e.loaded ? 'loaded' : '') + (e.id === state.selected ? ' selected' : '') + '">' +
    '<td><span class="status ' + statusClass(e.status) + '">' + esc(e.status) + '</span></td>' +
    '<td><button type="button" class="open">' + esc(e.method) + ' ' + esc(e.path + query) +
    '<span class="visually-hidden">, answered ' + esc(e.status) + '</span></button>' + (e.loaded ? '<span class="tag loaded">loaded</span>' : '') +
    (!HOSTED && state.world === '' ? '<span class="tag">' + esc(e.workspace) + '</span>' : '') + '</td>' +
    '<td>' + (e.operation_id ? esc(e.operation_id) : '<span class="muted">none</span>') + '</td>' +
    '<td class="muted">' + esc(at) + '</td></tr>';
}

// The first rows are written at once and the rest a few hundred per task, so the first screenful paints without
// waiting for a thousand rows' layout, and a poll never holds the page for long.
var FIRST_ROWS = 100;
var MORE_ROWS = 300;
var tbody = document.querySelector('#journal tbody');

/** Writes the list; 'partial' when it is the first screenful of a journal still being read. */
function renderList(partial) {
  var list = shownEntries();
  var focusedId = focusedRowId();
  var gen = ++state.renderGen;
  tbody.innerHTML = list.slice(0, FIRST_ROWS).map(rowHtml).join('');
  var written = Math.min(FIRST_ROWS, list.length);
  var more = function () {
    if (gen !== state.renderGen) return;
    if (written >= list.length) {
      if (!partial) performance.mark('inspector-journal-complete');
      if (focusedId) focusRow(focusedId);
      return;
    }
    tbody.insertAdjacentHTML('beforeend', list.slice(written, written + MORE_ROWS).map(rowHtml).join(''));
    written += MORE_ROWS;
    setTimeout(more);
  };
  if (focusedId) focusRow(focusedId);
  afterRows(list.length);
  // The rest once the first rows are on screen.
  requestAnimationFrame(function () { setTimeout(more); });
}

/** New entries at the top of a newest-first list: only they are written, and the rows past the limit go. */
function prependRows(fresh) {
  var focusedId = focusedRowId();
  tbody.insertAdjacentHTML('afterbegin', fresh.map(rowHtml).join(''));
  var extra = tbody.rows.length - state.entries.length;
  for (var i = 0; i < extra; i++) tbody.lastElementChild.remove();
  if (focusedId) focusRow(focusedId);
  afterRows(state.entries.length);
}

function focusedRowId() {
  var row = document.activeElement && document.activeElement.closest && document.activeElement.closest('tbody tr');
  return row ? row.getAttribute('data-id') : null;
}

function afterRows(count) {
  $('journal-caption').textContent = count
    ? count + ' requests, ' + (state.order === 'failed' ? 'failed first' : 'newest first') + '.'
    : 'No requests match.';
  if (state.pendingSelect && state.ids.has(state.pendingSelect)) {
    var id = state.pendingSelect;
    state.pendingSelect = null;
    select(id, false);
  }
  if (!state.painted) {
    state.painted = true;
    body.setAttribute('data-journal-ready', String(count));
    // The frame that shows the first list has painted once a task queued from its animation frame runs (npm run
    // bench reads the mark); what the page reads besides the journal waits until then.
    requestAnimationFrame(function () {
      setTimeout(function () {
        performance.mark('inspector-journal-painted');
        afterFirstPaint();
      });
    });
  }
  var ops = new Set(state.entries.map(function (e) { return e.operation_id; }).filter(Boolean));
  Object.keys(state.tagOf).forEach(function (op) { ops.add(op); });
  var datalist = $('operations');
  if (datalist.childElementCount !== ops.size) datalist.innerHTML = Array.from(ops).sort().map(function (op) { return '<option value="' + esc(op) + '">'; }).join('');
}

function focusRow(id) {
  var row = document.querySelector('#journal tbody tr[data-id="' + CSS.escape(id) + '"] button');
  if (row) row.focus();
}

function entryById(id) { return state.entries.find(function (e) { return e.id === id; }); }

/** The entry whole (the list holds it summed up): read by its id in its world, once per opening. */
function wholeEntry(e) {
  var q = new URLSearchParams({ id: e.id, limit: '1' });
  if (!HOSTED) q.set('workspace', e.workspace || 'default');
  return fetch('requests?' + q.toString(), { headers: readHeaders(), cache: 'no-store' })
    .then(function (res) { return res.json().then(function (answer) { return { res: res, answer: answer }; }); })
    .then(function (r) {
      if (!r.res.ok) throw new Error('the journal answered ' + r.res.status + ': ' + (r.answer.message || ''));
      if (!r.answer.data.length) throw new Error('the journal no longer holds it (its ring dropped it, or it was cleared)');
      return r.answer.data[0];
    });
}

function select(id, focusDetail) {
  state.selected = id;
  Array.prototype.forEach.call(document.querySelectorAll('#journal tbody tr'), function (tr) {
    tr.classList.toggle('selected', tr.getAttribute('data-id') === id);
  });
  var e = entryById(id);
  if (!e) return;
  wholeEntry(e).then(function (whole) {
    if (state.selected !== id) return;
    renderDetail(whole);
    if (focusDetail) $('detail-heading').focus();
  }, function (error) {
    if (state.selected === id) setStatus('Entry ' + id + ' could not be read: ' + error.message);
  });
}

// ---- one entry: the trail in the service's order ----

/** A query object as the journal keeps it, as pairs a URLSearchParams takes (repeated keys for arrays). */
function flatQuery(query) {
  var pairs = [];
  Object.keys(query || {}).forEach(function (key) {
    var value = query[key];
    (Array.isArray(value) ? value : [value]).forEach(function (v) {
      pairs.push([key, typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v)]);
    });
  });
  return pairs;
}

function urlOf(e) {
  var qs = new URLSearchParams(flatQuery(e.request && e.request.query)).toString();
  return BASE + e.path + (qs ? '?' + qs : '');
}

/** Which step answered: the trail's word for it, or (an entry without a trail) the step its status points to. */
function answeredBy(e) {
  if (e.trail) return e.trail.answered_by;
  if (!e.operation_id && (e.status === 404 || e.status === 405)) return 'route';
  if (e.status === 401) return 'authentication';
  if (e.status === 422 || e.status === 400 || e.status === 415) return 'validation';
  if (e.status === 413 || e.status === 429 || e.status === 503) return 'limit';
  if ((e.status === 404 || e.status === 403) && e.operation_id) return 'record';
  return 'handler';
}

var ORDER = ['route', 'authentication', 'record', 'validation', 'prefer', 'handler', 'response_check'];

function messageOf(e) {
  var b = e.response && e.response.body;
  return b && typeof b === 'object' && typeof b.message === 'string' ? b.message : '';
}

function valueAt(e, field) {
  var parts = String(field).split('.');
  var root;
  if (parts[0] === 'body') { root = e.request && e.request.body; parts.shift(); }
  else if (parts[0] === 'query') { root = e.request && e.request.query; parts.shift(); }
  else if (parts[0] === 'params' || parts[0] === 'path' || parts[0] === 'Prefer') return undefined;
  else root = e.request && e.request.body;
  for (var i = 0; i < parts.length; i++) {
    if (root === null || typeof root !== 'object' || !(parts[i] in root)) return undefined;
    root = root[parts[i]];
  }
  return root;
}

function ruleText(rule) {
  if (!rule) return '';
  var p = rule.params || {};
  switch (rule.keyword) {
    case 'enum': return 'one of ' + (p.allowedValues || []).map(function (v) { return JSON.stringify(v); }).join(', ');
    case 'type': return 'type ' + p.type;
    case 'pattern': return 'pattern ' + p.pattern;
    case 'format': return 'format ' + p.format;
    case 'required': return 'required: ' + p.missingProperty;
    case 'additionalProperties': return 'no property ' + p.additionalProperty;
    case 'const': return 'equal to ' + JSON.stringify(p.allowedValue);
    default:
      if ('limit' in p) return rule.keyword + ' ' + p.limit;
      return rule.keyword + ' ' + JSON.stringify(p);
  }
}

/** Each field error beside the value sent and the contract's rule; from the trail, else from the 422's own body. */
function fieldErrors(e) {
  if (e.trail && e.trail.field_errors) return e.trail.field_errors;
  var errors = e.response && e.response.body && e.response.body.errors;
  if (!errors || typeof errors !== 'object') return [];
  var out = [];
  Object.keys(errors).forEach(function (field) {
    (Array.isArray(errors[field]) ? errors[field] : [errors[field]]).forEach(function (message) {
      var value = valueAt(e, field);
      out.push(value === undefined ? { field: field, message: String(message) } : { field: field, message: String(message), value: value });
    });
  });
  return out;
}

function docsLink(e) {
  var anchor = e.trail && e.trail.docs_anchor;
  if (!anchor && e.operation_id && state.tagOf[e.operation_id]) anchor = '#/' + state.tagOf[e.operation_id] + '/' + e.operation_id;
  if (!anchor) return '';
  return ' <a href="' + esc(BASE + '/docs/' + anchor) + '">' + esc(e.operation_id || 'the operation') + ' in the API docs</a>';
}

function stepHtml(e, step) {
  var t = e.trail || {};
  var msg = messageOf(e);
  switch (step) {
    case 'route':
      if (e.operation_id) return 'Route: matched ' + code(e.operation_id) + '.';
      if (e.status === 405) return 'Route: the path has no ' + code(e.method) + ' (405)' + (t.route && t.route.allow ? '; it allows ' + esc(t.route.allow.join(', ')) : '') + '.';
      return 'Route: no operation has this path (' + esc(e.status) + ').';
    case 'authentication': {
      var sent = e.request && e.request.headers && e.request.headers.authorization;
      return 'Authentication: ' + (e.status === 401 || t.answered_by === 'authentication' ? esc(e.status) + (msg ? ': ' + esc(msg) : '') : sent ? 'the token was accepted.' : 'no token sent.');
    }
    case 'record':
      if (t.record) {
        return 'Record: ' + code(t.record.parameter) + ' = ' + code(t.record.id) + ': ' +
          (t.record.outcome === 'unknown' ? 'no such record' : 'it belongs to a merchant the caller is not a member of') + ' (' + esc(e.status) + ').';
      }
      return 'Record: ' + (answeredBy(e) === 'record' ? esc(e.status) + (msg ? ': ' + esc(msg) : '') : 'the records the request names were found.');
    case 'validation': {
      if (answeredBy(e) !== 'validation') return 'Input: it meets the contract.';
      var rows = fieldErrors(e).map(function (f) {
        return '<tr><th scope="row">' + code(f.field) + '</th><td>' + ('value' in f ? code(JSON.stringify(f.value)) : '<span class="muted">not sent</span>') +
          '</td><td>' + (f.rule ? esc(ruleText(f.rule)) : '<span class="muted">–</span>') + '</td><td>' + esc(f.message) + '</td></tr>';
      }).join('');
      return 'Input: ' + esc(e.status) + (msg ? ': ' + esc(msg) : '') + docsLink(e) +
        (rows ? '<table class="errors"><caption class="visually-hidden">Field errors</caption><thead><tr><th scope="col">Field</th><th scope="col">Value sent</th><th scope="col">Contract rule</th><th scope="col">Message</th></tr></thead><tbody>' + rows + '</tbody></table>' : '');
    }
    case 'prefer': {
      var p = t.prefer;
      if (p && Object.keys(p).length) {
        var knobs = Object.keys(p).filter(function (k) { return k !== 'applied' && k !== 'error'; }).map(function (k) { return code(k + '=' + p[k]); }).join(' ');
        return 'Prefer: ' + (knobs || 'no knobs') + (p.applied ? '; applied ' + code(p.applied) : '') + (p.error ? '; refused: ' + esc(p.error) : '') + '.';
      }
      var raw = e.request && e.request.headers && e.request.headers.prefer;
      return 'Prefer: ' + (raw ? code(raw) : 'no knobs.');
    }
    case 'handler':
      return 'Handler: ' + (answeredBy(e) === 'handler' ? 'the operation answered ' + esc(e.status) + (msg && e.status >= 400 ? ': ' + esc(msg) : '') : 'not reached.');
    case 'response_check':
      if (!e.trail) return 'The answer’s own check: not recorded for this entry.';
      return 'The answer’s own check: ' + ({ passed: 'it meets the contract.', failed: 'it broke the contract (answered 500).', not_checked: 'not checked (a refusal before the handler, or nothing to check).' }[t.response_check] || esc(t.response_check));
  }
  return '';
}

function trailHtml(e) {
  var by = answeredBy(e);
  var at = ORDER.indexOf(by);
  var items = [];
  if (by === 'limit') items.push('<li class="answered">A limit answered ' + esc(e.status) + (messageOf(e) ? ': ' + esc(messageOf(e)) : '') + '</li>');
  ORDER.forEach(function (step, i) {
    var cls = by === 'limit' ? 'skipped' : i < at ? 'passed' : i === at ? 'answered' : step === 'response_check' && by === 'handler' ? 'passed' : 'skipped';
    items.push('<li class="' + cls + (cls === 'answered' && e.status < 400 ? ' ok' : '') + '"' + (cls === 'answered' ? ' aria-current="step"' : '') + ' data-step="' + step + '">' + stepHtml(e, step) + (cls === 'answered' ? ' <span class="tag">answered here</span>' : '') + '</li>');
    if (step === 'validation') {
      var ignored = (e.request && e.request.ignored) || [];
      items.push('<li class="' + (cls === 'skipped' ? 'skipped' : 'passed') + '" data-step="ignored">Ignored fields: ' + (ignored.length ? ignored.map(code).join(' ') : 'none') + '</li>');
    }
  });
  return '<ol class="trail">' + items.join('') + '</ol>' + (e.trail ? '' : '<p class="muted">No trail was recorded for this entry: the step shown is the one its status points to.</p>');
}

function bodyHtml(title, part) {
  if (!part) return '';
  var b = part.body;
  return '<details open><summary>' + esc(title) + (part.body_truncated ? ' (cut in the journal)' : '') + '</summary><pre>' +
    esc(b === null || b === undefined ? '(none)' : typeof b === 'string' ? b : json(b)) + '</pre></details>';
}

function renderDetail(e) {
  var d = $('detail');
  d.innerHTML = '<h2 id="detail-heading" tabindex="-1">' + esc(e.method + ' ' + e.path) + ' → <span class="status ' + statusClass(e.status) + '">' + esc(e.status) + '</span></h2>' +
    '<p>' + (e.operation_id ? code(e.operation_id) + ' · ' : '') + 'world ' + code(e.workspace || 'default') + ' · ' + esc(e.at || '') + ' · ' + esc(e.duration_ms) + ' ms' +
    (e.loaded ? ' <span class="tag loaded">loaded</span>' : '') + '<br><span class="muted">request id ' + esc(e.id) + '</span></p>' +
    '<h3>Trail</h3>' + trailHtml(e) +
    '<div class="actions"><button type="button" id="copy-curl">Copy as curl</button>' +
    '<label><input type="checkbox" id="curl-token"> with this tab’s token</label>' +
    '<button type="button" id="send-again">Send again</button><span id="action-status" role="status"></span></div>' +
    '<pre id="curl" hidden></pre>' +
    '<h3>Request</h3>' + (e.request && e.request.query && Object.keys(e.request.query).length ? '<p>Query</p><pre>' + esc(json(e.request.query)) + '</pre>' : '') +
    '<details><summary>Headers (redacted)</summary><pre>' + esc(json((e.request && e.request.headers) || {})) + '</pre></details>' +
    bodyHtml('Request body', e.request) + '<h3>Answer</h3>' + bodyHtml('Answer body', e.response);
  $('copy-curl').addEventListener('click', function () { copyCurl(e); });
  $('send-again').addEventListener('click', function () { sendAgain(e); });
}

// ---- copy as curl, send again ----

// Never replayed: what the browser or curl sets itself, the token (the tab's own or a placeholder instead) and
// whatever the journal redacted.
var UNREPLAYED = /^(host|content-length|connection|authorization|cookie|user-agent|accept-encoding|x-request-id|origin|referer|transfer-encoding|keep-alive|te|upgrade|x-forwarded-.*|forwarded|sec-.*|priority)$/i;

function replayHeaders(e) {
  var headers = (e.request && e.request.headers) || {};
  return Object.keys(headers).filter(function (name) {
    return !UNREPLAYED.test(name) && typeof headers[name] === 'string' && headers[name].indexOf('[REDACTED]') < 0;
  }).map(function (name) { return [name, headers[name]]; });
}

function hadToken(e) { return !!(e.request && e.request.headers && e.request.headers.authorization); }

function requestBodyText(e) {
  var b = e.request && e.request.body;
  if (b === null || b === undefined) return null;
  return typeof b === 'string' ? b : JSON.stringify(b);
}

var sh = function (s) { return "'" + String(s).replace(/'/g, "'\\''") + "'"; };

function curlOf(e, withToken) {
  // Every part the entry gives is quoted: a loaded run's entries come from a file someone else may have written.
  var parts = ['curl', '-sS', e.method === 'HEAD' ? '-I' : '-X ' + sh(e.method), sh(location.origin + urlOf(e))];
  replayHeaders(e).forEach(function (h) { parts.push('-H ' + sh(h[0] + ': ' + h[1])); });
  if (hadToken(e)) {
    var token = withToken ? tokenFor(e.workspace) : '';
    parts.push(token ? '-H ' + sh('Authorization: Bearer ' + token) : '-H "Authorization: Bearer $SANDBOX_TOKEN"');
  }
  var data = requestBodyText(e);
  if (data !== null) parts.push('--data-raw ' + sh(data));
  return parts.join(' ');
}

function actionStatus(text) { var s = $('action-status'); if (s) s.textContent = text; }

function copyCurl(e) {
  var command = curlOf(e, $('curl-token').checked);
  var pre = $('curl');
  pre.hidden = false;
  pre.textContent = command;
  var note = hadToken(e) && !$('curl-token').checked ? ' Set SANDBOX_TOKEN to a token of world ' + (e.workspace || 'default') + ' first.' : '';
  if (navigator.clipboard && window.isSecureContext) {
    navigator.clipboard.writeText(command).then(function () { actionStatus('Copied.' + note); }, function () { actionStatus('Select the command below to copy it.' + note); });
  } else actionStatus('Select the command below to copy it.' + note);
}

/** The token matches the entry's world: a workspace's tokens start with ws_<id>., the default world's do not. */
function tokenFits(token, world) {
  var m = /^ws_([^.]+)\./.exec(token);
  return world && world !== 'default' ? !!m && m[1] === world : !m;
}

function sendAgain(e) {
  var headers = {};
  replayHeaders(e).forEach(function (h) { headers[h[0]] = h[1]; });
  if (hadToken(e)) {
    var token = tokenFor(e.workspace);
    if (!token) { actionStatus('Sending again needs a token of world ' + (e.workspace || 'default') + ': paste it into “Token of this tab”.'); return; }
    if (!tokenFits(token, e.workspace)) { actionStatus('This tab’s token acts on another world than ' + (e.workspace || 'default') + ': paste a token of that world.'); return; }
    headers.Authorization = 'Bearer ' + token;
  }
  var data = requestBodyText(e);
  actionStatus('Sending…');
  // On this origin whatever the entry's path ('//host/...' alone would be another site's, and get the tab's token).
  fetch(location.origin + urlOf(e), { method: e.method, headers: headers, body: data === null || e.method === 'GET' || e.method === 'HEAD' ? undefined : data, cache: 'no-store' })
    .then(function (res) {
      var id = res.headers.get('X-Request-Id');
      actionStatus('Answered ' + res.status + '; its entry opens when the journal shows it.');
      state.pendingSelect = id;
      poll('newer');
    }, function (error) { actionStatus('Not sent: ' + error.message); });
}

// ---- coverage: operation × status by tag, the --require pairs and the gate ----

function loadCoverage() {
  var q = new URLSearchParams({ format: 'json' });
  if (!HOSTED && state.world) q.set('workspace', state.world);
  var headers = readHeaders();
  if (HOSTED && !headers.Authorization) return;
  return fetch('coverage?' + q.toString(), { headers: headers, cache: 'no-store' })
    .then(function (res) { return res.json().then(function (b) { return { res: res, b: b }; }); })
    .then(function (r) {
      if (!r.res.ok) { $('coverage-totals').textContent = 'Coverage answered ' + r.res.status + ': ' + (r.b.message || ''); return; }
      state.coverage = r.b.data;
      r.b.data.operations.forEach(function (op) { if (op.tag) state.tagOf[op.operation_id] = op.tag; });
      renderCoverage();
    }, function (error) { $('coverage-totals').textContent = 'Coverage is unreachable: ' + error.message; });
}

function requiredKeys() {
  var text = $('require-text').value;
  if (!text.trim() || !state.coverage) return { keys: null, errors: [] };
  var parsed = parseRequireFile(text, 'require file');
  if (!parsed.ok) return { keys: null, errors: parsed.errors };
  // As the CLI's gate without --count-forced: a '*' line leaves out what no client request causes.
  var pairs = requiredPairs(parsed.value, state.coverage, 'require file', uncountedPairs(state.coverage, false));
  return pairs.ok ? { keys: new Set(pairs.value), errors: [] } : { keys: null, errors: pairs.errors };
}

function renderCoverage() {
  var c = state.coverage;
  if (!c) return;
  var t = c.totals;
  $('coverage-totals').textContent = 'World ' + c.workspace + ': ' + t.answered_statuses + ' of ' + t.documented_statuses + ' documented statuses exercised (' + t.percent + '%), ' +
    t.operations_exercised + ' of ' + t.operations + ' operations called.' + (!HOSTED && state.world === '' ? ' (Every world is shown in the journal; this is the default world’s coverage.)' : '');
  var req = requiredKeys();
  var gate = $('gate');
  gate.className = '';
  if (req.errors.length) { gate.textContent = 'The gate would refuse the file (exit 2): ' + req.errors.join('; '); gate.className = 'failed'; }
  else if (req.keys) {
    var missed = Array.from(req.keys).filter(function (key) {
      var parts = key.split(' ');
      var op = c.operations.find(function (o) { return o.operation_id === parts[0]; });
      return !op || op.answered.indexOf(parts[1]) < 0;
    });
    gate.className = missed.length ? 'failed' : 'passed';
    gate.textContent = missed.length
      ? 'The gate would fail: ' + missed.length + ' of ' + req.keys.size + ' required pairs not exercised: ' + missed.join(', ') + '.'
      : 'The gate would pass: all ' + req.keys.size + ' required pairs are exercised.';
  } else gate.textContent = 'Give the page a --require file to see what the gate would say.';
  var groups = new Map();
  c.operations.forEach(function (op) {
    var tag = op.tag || '(no tag)';
    if (!groups.has(tag)) groups.set(tag, []);
    groups.get(tag).push(op);
  });
  var worldParam = !HOSTED && state.world ? '&world=' + encodeURIComponent(state.world) : '';
  var html = '';
  groups.forEach(function (ops, tag) {
    var statuses = new Set();
    ops.forEach(function (op) { op.documented.concat(op.undocumented).forEach(function (s) { statuses.add(s); }); });
    var cols = Array.from(statuses).sort();
    html += '<div class="grid-tag" tabindex="0" role="region" aria-label="' + esc(tag) + ' coverage"><table class="grid"><caption><h3>' + esc(tag) + '</h3></caption><thead><tr><th scope="col">Operation</th>' +
      cols.map(function (s) { return '<th scope="col">' + esc(s) + '</th>'; }).join('') + '</tr></thead><tbody>';
    ops.forEach(function (op) {
      html += '<tr><th scope="row">' + esc(op.operation_id) + ' <span class="muted">' + esc(op.method + ' ' + op.path) + '</span></th>';
      cols.forEach(function (s) {
        var key = op.operation_id + ' ' + s;
        var required = req.keys && req.keys.has(key) ? ' required' : '';
        var requiredText = required ? ', required' : '';
        // A 405 names no operation, only a path (the coverage credits it to each of the path's operations): its
        // entries are the 405s of paths starting with the operation's, up to its first parameter.
        var link = s === '405'
          ? '#journal?path=' + encodeURIComponent(op.path.split('{')[0]) + '&status=405' + worldParam
          : '#journal?operation=' + encodeURIComponent(op.operation_id) + '&status=' + encodeURIComponent(s) + worldParam;
        if (op.answered.indexOf(s) >= 0) {
          html += '<td class="hit' + required + '" data-pair="' + esc(key) + '"><a href="' + link + '">✓<span class="visually-hidden"> ' + esc(key) + ' exercised' + requiredText + ': its entries</span></a></td>';
        } else if (op.undocumented.indexOf(s) >= 0) {
          html += '<td class="undoc' + required + '" data-pair="' + esc(key) + '"><a href="' + link + '">!<span class="visually-hidden"> ' + esc(key) + ' answered but not documented: its entries</span></a></td>';
        } else if (op.documented.indexOf(s) >= 0) {
          var forced = op.forced && op.forced.indexOf(s) >= 0;
          html += '<td class="miss' + required + '" data-pair="' + esc(key) + '" title="' + (forced ? 'only forced with Prefer: code=' : 'not exercised') + '">' + (forced ? 'P' : '✗') +
            '<span class="visually-hidden"> ' + esc(key) + (forced ? ' only forced with Prefer' : ' not exercised') + requiredText + '</span></td>';
        } else html += '<td class="none"><span class="visually-hidden">not documented</span></td>';
      });
      html += '</tr>';
    });
    html += '</tbody></table></div>';
  });
  $('grid').innerHTML = html;
}

// ---- views, filters, the world ----

function readHash() {
  var hash = location.hash.replace(/^#/, '');
  var view = hash.split('?')[0] === 'coverage' ? 'coverage' : 'journal';
  var q = new URLSearchParams(hash.split('?')[1] || '');
  return { view: view, q: q };
}

function applyHash() {
  var h = readHash();
  state.view = h.view;
  $('journal-view').hidden = h.view !== 'journal';
  $('coverage-view').hidden = h.view !== 'coverage';
  $('to-journal').setAttribute('aria-current', String(h.view === 'journal'));
  $('to-coverage').setAttribute('aria-current', String(h.view === 'coverage'));
  var changed = false;
  if (h.view === 'journal' && h.q.toString()) {
    var form = $('filters');
    ['status', 'operation', 'method', 'path'].forEach(function (name) {
      var v = h.q.get(name) || '';
      if (state.filters[name] !== v) { state.filters[name] = v; changed = true; }
      form.elements[name].value = v;
    });
    if (!HOSTED && h.q.has('world')) { changed = changed || state.world !== h.q.get('world'); setWorld(h.q.get('world'), false); }
  }
  return changed;
}

function setWorld(world, reload) {
  var select = $('world');
  if (world && !Array.prototype.some.call(select.options, function (o) { return o.value === world; })) {
    state.worlds.add(world);
    var option = document.createElement('option');
    option.value = world;
    option.textContent = 'workspace ' + world;
    select.appendChild(option);
  }
  select.value = world;
  state.world = world;
  if (reload) restart();
}

function restart() {
  state.gen++;
  state.newest = null;
  state.etag = null;
  state.selected = null;
  poll('first');
  if (state.view === 'coverage') loadCoverage();
}

var typing = null;
$('filters').addEventListener('input', function (event) {
  var form = $('filters');
  if (event.target.name === 'order') {
    state.order = form.elements.order.value;
    state.orderChosen = true;
    renderList();
    return;
  }
  clearTimeout(typing);
  typing = setTimeout(function () {
    ['status', 'operation', 'method', 'path'].forEach(function (name) { state.filters[name] = form.elements[name].value.trim(); });
    restart();
  }, 250);
});
$('filters').addEventListener('submit', function (event) { event.preventDefault(); });
$('world').addEventListener('change', function () { setWorld($('world').value, true); });
$('token').addEventListener('change', function () { if (HOSTED) restart(); });
$('require-text').addEventListener('input', renderCoverage);
$('require-file').addEventListener('change', function () {
  var file = $('require-file').files[0];
  if (file) file.text().then(function (text) { $('require-text').value = text; renderCoverage(); });
});
if ($('new-workspace')) {
  $('new-workspace').addEventListener('click', function () {
    fetch('workspaces', { method: 'POST' }).then(function (res) {
      return res.json().then(function (answer) {
        if (!res.ok) throw new Error(answer.message || 'HTTP ' + res.status);
        sessionStorage.setItem(KEY, JSON.stringify(answer.data));
        $('token').value = '';
        restart();
      });
    }).catch(function (error) { setStatus('No workspace made: ' + error.message); });
  });
}
window.addEventListener('hashchange', function () {
  if (applyHash()) restart();
  else if (state.view === 'coverage') loadCoverage();
});

// Rows: a click or Enter opens an entry; ↑ and ↓ move between rows.
tbody.addEventListener('click', function (event) {
  var tr = event.target.closest('tr');
  if (tr && event.target.closest('button')) select(tr.getAttribute('data-id'), false);
});
tbody.addEventListener('keydown', function (event) {
  if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
  var tr = event.target.closest('tr');
  var next = tr && (event.key === 'ArrowDown' ? tr.nextElementSibling : tr.previousElementSibling);
  if (next) { event.preventDefault(); next.querySelector('button').focus(); }
});

// The first world: hosted, the token's; locally, the docs' workspace of this tab when the docs act in it, else the default world.
var kept = keptWorkspace();
if (HOSTED) {
  $('world').options[0].textContent = kept ? 'workspace ' + kept.id : 'this tab’s workspace';
} else setWorld(kept && sessionStorage.getItem('sandbox-world') === 'workspace' ? kept.id : 'default', false);

function afterFirstPaint() {
  // The coverage names each operation's tag: the grid, and the links from an entry to its operation in the docs.
  var reads = [state.view !== 'coverage' && loadCoverage()];
  // The workspaces the journal names, for the switch (the control plane lists no workspaces: the journal does).
  if (!HOSTED) reads.push(fetch('requests?fields=summary&limit=' + LIMIT, { headers: { Accept: 'application/json' }, cache: 'no-store' })
    .then(function (res) { return res.ok ? res.json() : { data: [] }; })
    .then(function (answer) { noteWorlds(answer.data); $('world').value = state.world; }, function () {}));
  // What opening the page reads is read (npm run bench measures a connected page from this mark on).
  Promise.all(reads).then(function () { performance.mark('inspector-opened'); });
}
applyHash();
if (state.view === 'coverage') loadCoverage();
$('reread').addEventListener('click', restart);
poll('first');
`;
