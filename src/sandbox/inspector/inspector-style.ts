/** The inspector page's style sheet: readable at 390 px (one column) and at 1280 px (list beside the entry). */
export const INSPECTOR_STYLE = `
:root { --ink: #1f2328; --muted: #57606a; --line: #d0d7de; --ok: #116329; --warn: #7d4e00; --bad: #a40e26; --focus: #0969da; }
* { box-sizing: border-box; }
body { font: 14px/1.45 system-ui, sans-serif; color: var(--ink); margin: 0; background: #fff; }
header { padding: 8px 16px; border-bottom: 1px solid var(--line); background: #f6f8fa; }
h1 { font-size: 18px; margin: 0 16px 4px 0; display: inline-block; }
h2 { font-size: 16px; margin: 8px 0; }
h3 { font-size: 14px; margin: 12px 0 4px; }
nav { display: inline-block; }
nav a { margin-right: 12px; }
a { color: #0550ae; }
:focus-visible { outline: 3px solid var(--focus); outline-offset: 1px; }
.world { display: flex; flex-wrap: wrap; gap: 6px 8px; align-items: center; margin-top: 4px; }
.world input { min-width: 14em; }
main { padding: 0 16px 16px; }
form#filters { display: flex; flex-wrap: wrap; gap: 6px 14px; margin-bottom: 8px; }
form#filters label { display: flex; gap: 4px; align-items: center; }
input, select, button, textarea { font: inherit; }
button { cursor: pointer; }
.split { display: grid; grid-template-columns: minmax(0, 1fr); gap: 16px; }
@media (min-width: 900px) { .split { grid-template-columns: minmax(0, 11fr) minmax(0, 10fr); } }
.list { overflow: auto; max-height: 80vh; border: 1px solid var(--line); }
table { border-collapse: collapse; width: 100%; }
/* Fixed columns: a thousand rows lay out without measuring every cell. */
#journal { table-layout: fixed; }
#journal th:nth-child(1) { width: 4.4em; } #journal th:nth-child(3) { width: 24%; } #journal th:nth-child(4) { width: 7.2em; }
#journal td:nth-child(4) { white-space: nowrap; overflow: hidden; font-size: 12px; }
#journal td { overflow-wrap: anywhere; }
caption { text-align: left; padding: 4px 6px; color: var(--muted); }
th, td { text-align: left; padding: 3px 6px; border-bottom: 1px solid #eaeef2; vertical-align: top; }
thead th { position: sticky; top: 0; background: #f6f8fa; }
tbody tr.selected { background: #ddf4ff; }
tbody tr.loaded td:first-child { box-shadow: inset 4px 0 #8250df; }
td button.open { all: unset; cursor: pointer; word-break: break-all; }
td button.open:focus-visible { outline: 3px solid var(--focus); }
.s2, .s3 { color: var(--ok); } .s4 { color: var(--warn); } .s5 { color: var(--bad); }
.status { font-weight: 600; font-variant-numeric: tabular-nums; }
.tag { display: inline-block; font-size: 12px; padding: 0 5px; border-radius: 8px; background: #eaeef2; margin-left: 4px; }
.tag.loaded { background: #fbefff; color: #6639ba; }
.muted { color: var(--muted); }
#detail { border: 1px solid var(--line); padding: 8px 12px; min-width: 0; }
#detail pre { background: #f6f8fa; padding: 8px; overflow: auto; max-height: 24em; white-space: pre-wrap; word-break: break-word; }
ol.trail { padding-left: 22px; }
ol.trail li { margin: 4px 0; }
ol.trail li.answered { font-weight: 600; }
ol.trail li.answered::marker { color: var(--bad); }
ol.trail li.answered.ok::marker { color: var(--ok); }
ol.trail li.passed::marker { color: var(--ok); }
ol.trail li.skipped { color: var(--muted); }
table.errors { table-layout: fixed; }
table.errors th[scope=col]:nth-child(1) { width: 30%; } table.errors th[scope=col]:nth-child(2), table.errors th[scope=col]:nth-child(3) { width: 20%; }
table.errors td, table.errors th { border: 1px solid var(--line); overflow-wrap: anywhere; }
.actions { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; margin: 8px 0; }
.grid-tag { margin-bottom: 14px; overflow-x: auto; }
table.grid td, table.grid th { border: 1px solid var(--line); text-align: center; min-width: 3.2em; }
table.grid th[scope=row] { text-align: left; font-weight: normal; white-space: nowrap; }
td.hit { background: #dafbe1; } td.miss { background: #fff1e5; } td.undoc { background: #ffebe9; } td.none { background: #f6f8fa; }
td.required { outline: 3px solid #8250df; outline-offset: -3px; }
td.required.miss { font-weight: 700; }
#gate.passed { color: var(--ok); } #gate.failed { color: var(--bad); }
#require textarea { display: block; width: 100%; max-width: 40em; }
#require label { display: block; margin-top: 6px; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
@media (max-width: 600px) { main { padding: 0 8px 8px; } header { padding: 8px; } #detail { padding: 6px 8px; } ol.trail { padding-left: 20px; } }
`;
