/** The reference page's one stylesheet, inline in its head: the wide layout with a sidebar, and the phone layout. */
/** Below this viewport width the sidebar becomes the "Contents" disclosure above the reference. */
export const BREAKPOINT_PX = 860;

const MONO = 'ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace';

export const STYLE = `
:root { --ink: #1d2330; --muted: #5d6677; --line: #dde2ea; --soft: #f5f7fa; --accent: #0b6bcb; --code: #eef2f7; }
* { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; text-size-adjust: 100%; }
body { margin: 0; font: 15px/1.55 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
  color: var(--ink); background: #fff; }
a { color: var(--accent); text-decoration: underline; text-decoration-thickness: 1px; text-underline-offset: 2px; }
a:hover { text-decoration-thickness: 2px; }
:focus-visible { outline: 2px solid var(--accent); outline-offset: 2px; }
code, pre { font-family: ${MONO}; font-size: 13px; }
code { background: var(--code); padding: 1px 5px; border-radius: 4px; white-space: nowrap; }
pre { background: #17202e; color: #e6edf6; padding: 12px 14px; border-radius: 6px; margin: 8px 0 16px; }
pre code { background: none; padding: 0; }
.scroll { overflow-x: auto; max-width: 100%; }
pre.scroll:focus-visible { outline-offset: 1px; }
.skip { position: absolute; left: 12px; top: -60px; z-index: 2; background: #fff; padding: 8px 12px;
  border: 2px solid var(--accent); border-radius: 6px; }
.skip:focus { top: 12px; }
header.top { padding: 22px 32px; border-bottom: 1px solid var(--line); background: var(--soft); }
header.top h1 { margin: 0; font-size: 24px; }
header.top .version { font-size: 13px; font-weight: 500; color: var(--muted); margin-left: 8px; white-space: nowrap; }
header.top p { margin: 4px 0 0; color: var(--muted); }
.layout { display: grid; grid-template-columns: 290px minmax(0, 1fr); }
nav { position: sticky; top: 0; align-self: start; max-height: 100vh; overflow-y: auto; padding: 20px 16px 20px 28px;
  border-right: 1px solid var(--line); font-size: 14px; }
.toc { margin: 0; }
.toc > summary { cursor: pointer; font-weight: 600; color: var(--ink); }
nav h2 { font-size: 12px; text-transform: uppercase; letter-spacing: .06em; color: var(--muted); margin: 18px 0 6px;
  padding: 0; border: 0; }
.toc-body > h2:first-child { margin-top: 0; }
nav ul { list-style: none; margin: 0; padding: 0; }
nav li { margin: 4px 0; }
nav li a { display: flex; align-items: baseline; text-decoration: none; }
nav li a:hover { text-decoration: underline; }
nav .m { flex: none; width: 32px; font-size: 10px; font-weight: 700; color: #1a7f37; }
nav .m.long { width: 50px; }
nav .p { font-family: ${MONO}; font-size: 12px; overflow-wrap: anywhere; }
main { padding: 8px 40px 60px; max-width: 1100px; min-width: 0; }
section { padding-top: 12px; }
h2 { font-size: 21px; margin: 28px 0 10px; padding-bottom: 6px; border-bottom: 1px solid var(--line); }
h3 { font-size: 17px; margin: 0 0 4px; display: flex; align-items: center; gap: 10px; flex-wrap: wrap; }
h3.topic { font-size: 13px; text-transform: uppercase; letter-spacing: .05em; color: var(--muted); margin: 18px 0 6px;
  gap: 6px; }
h3.topic code { text-transform: none; letter-spacing: 0; color: var(--ink); }
h4 { font-size: 13px; text-transform: uppercase; letter-spacing: .05em; color: var(--muted); margin: 18px 0 6px; }
.operation { border: 1px solid var(--line); border-radius: 8px; padding: 18px 22px 8px; margin: 18px 0 26px;
  scroll-margin-top: 12px; }
.operation .summary { font-size: 16px; margin: 2px 0 8px; }
.method { background: #1a7f37; color: #fff; font-size: 12px; font-weight: 700; padding: 3px 8px; border-radius: 4px; }
code.path { font-size: 15px; background: none; padding: 0; overflow-wrap: anywhere; white-space: normal; }
div.scroll { margin: 6px 0 12px; }
table { border-collapse: collapse; width: 100%; font-size: 14px; }
th, td { text-align: left; vertical-align: top; padding: 7px 10px; border-bottom: 1px solid var(--line); }
th { background: var(--soft); font-size: 12px; text-transform: uppercase; letter-spacing: .04em; color: var(--muted); }
td p { margin: 0 0 4px; }
td ul { margin: 0; padding-left: 18px; }
code.type { background: none; padding: 0; color: #6a3fb5; white-space: normal; word-break: break-word; }
.req { color: #b42318; font-size: 12px; font-weight: 600; }
.opt { color: var(--muted); font-size: 12px; }
.muted { color: var(--muted); }
.status { display: inline-block; min-width: 38px; text-align: center; font-weight: 700; font-size: 12px;
  padding: 1px 6px; border-radius: 4px; margin: 1px 2px 1px 0; }
.s2 { background: #dafbe1; color: #116329; }
.s3 { background: #ddf4ff; color: #0550ae; }
.s4 { background: #fff1e5; color: #953800; }
.s5 { background: #ffebe9; color: #a40e26; }
a.code { display: inline-block; white-space: nowrap; font-family: ${MONO}; font-size: 12px;
  background: var(--code); padding: 1px 6px; border-radius: 4px; margin: 1px 2px; color: var(--ink);
  text-decoration-color: #8a93a3; }
table.responses td:nth-child(4) code { font-size: 11px; margin: 1px 0; display: inline-block; }
table.responses td:first-child, table.catalog td:first-child, table.catalog td:nth-child(2),
table.headers td:first-child, table.params td:first-child, table.fields td:first-child { white-space: nowrap; }
details:not(.toc) { margin: 4px 0 14px; }
summary { cursor: pointer; color: var(--accent); font-size: 14px; }
.to-contents { display: none; }
/* The wide layout: the disclosure is the sidebar, always open. Where ::details-content is unknown, its summary stays,
   so the navigation can still be opened. */
@media (min-width: ${BREAKPOINT_PX}px) {
  .toc::details-content { content-visibility: visible; display: contents; }
  @supports selector(::details-content) { .toc > summary { display: none; } }
}
/* The narrow layout: the navigation is a disclosure above the reference, and every wide block scrolls by itself. */
@media (max-width: ${BREAKPOINT_PX - 0.02}px) {
  header.top { padding: 16px; }
  header.top h1 { font-size: 21px; }
  header.top .version { display: block; margin: 2px 0 0; }
  .layout { display: block; }
  nav { position: static; max-height: none; overflow: visible; padding: 0; border-right: 0;
    border-bottom: 1px solid var(--line); }
  .toc > summary { padding: 12px 16px; font-size: 16px; color: var(--accent); }
  .toc[open] > summary { border-bottom: 1px solid var(--line); }
  .toc-body { padding: 14px 16px 18px; }
  nav li { margin: 0; }
  nav li a { padding: 7px 0; }
  main { padding: 4px 16px 72px; }
  h2 { font-size: 19px; }
  .operation { padding: 14px 12px 6px; margin: 14px 0 20px; }
  code.path { font-size: 14px; }
  p code, li code { white-space: normal; overflow-wrap: anywhere; }
  /* Squeezed to the phone's width a table's columns turn into a few letters a line: it keeps a readable width and
     scrolls sideways in its region instead. */
  div.scroll > table { min-width: 640px; }
  table.fields td:nth-child(2), table.params td:nth-child(4) { min-width: 11em; }
  table.fields td:last-child, table.params td:last-child, table.catalog td:nth-child(3) { min-width: 15em; }
  .to-contents { display: block; position: fixed; right: 12px; bottom: 12px; z-index: 1; padding: 8px 14px;
    background: var(--ink); color: #fff; border-radius: 20px; font-size: 14px; text-decoration: none;
    box-shadow: 0 2px 8px rgba(0, 0, 0, .25); }
}
`;
