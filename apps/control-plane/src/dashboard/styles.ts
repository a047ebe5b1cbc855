/** The dashboard's stylesheet (served as /dashboard/assets/dashboard.css). */
export const styles = `
:root { color-scheme: light; --fg: #1d2330; --muted: #667085; --line: #e4e7ec; --bg: #f7f8fa; --accent: #3b5bdb; --bad: #c92a2a; --ok: #2b8a3e; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--fg); background: var(--bg); }
header.top { display: flex; align-items: center; gap: 24px; padding: 10px 24px; background: #fff; border-bottom: 1px solid var(--line); }
.brand { font-weight: 700; letter-spacing: .02em; }
nav { display: flex; gap: 4px; }
nav a { color: var(--muted); text-decoration: none; padding: 6px 10px; border-radius: 6px; }
nav a.active, nav a:hover { color: var(--fg); background: var(--bg); }
.who { margin-left: auto; display: flex; gap: 10px; align-items: center; color: var(--muted); }
main { max-width: 1180px; margin: 0 auto; padding: 20px 24px 48px; }
h1 { font-size: 22px; margin: 4px 0 16px; }
h2 { font-size: 16px; margin: 28px 0 10px; }
.muted { color: var(--muted); }
.cards { display: grid; grid-template-columns: repeat(auto-fit, minmax(160px, 1fr)); gap: 12px; }
.card { background: #fff; border: 1px solid var(--line); border-radius: 10px; padding: 12px 14px; }
.card .label { color: var(--muted); font-size: 12px; text-transform: uppercase; letter-spacing: .04em; }
.card .value { font-size: 22px; font-weight: 650; margin-top: 2px; }
.card .sub { color: var(--muted); font-size: 12px; }
.grid2 { display: grid; grid-template-columns: repeat(auto-fit, minmax(420px, 1fr)); gap: 12px; margin-top: 12px; }
figure.chart { margin: 0; background: #fff; border: 1px solid var(--line); border-radius: 10px; padding: 10px 12px; }
figcaption { font-weight: 600; margin-bottom: 4px; display: flex; justify-content: space-between; gap: 8px; }
.legend { font-weight: 400; color: var(--muted); display: flex; gap: 10px; }
.legend i { display: inline-block; width: 10px; height: 10px; border-radius: 2px; margin-right: 4px; }
svg { width: 100%; height: auto; display: block; }
svg .axis { stroke: #98a2b3; } svg .grid { stroke: var(--line); stroke-dasharray: 3 3; }
svg .ylabel { font-size: 10px; fill: var(--muted); text-anchor: end; } svg .xlabel { font-size: 10px; fill: var(--muted); }
ul.bars { list-style: none; margin: 0; padding: 0; }
ul.bars li { display: grid; grid-template-columns: 200px 1fr 110px; gap: 8px; align-items: center; padding: 3px 0; }
.bar-label { overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.bar { background: var(--bg); border-radius: 4px; height: 10px; overflow: hidden; } .bar span { display: block; height: 100%; background: var(--accent); }
.bar-value { color: var(--muted); text-align: right; font-variant-numeric: tabular-nums; }
table { width: 100%; border-collapse: collapse; background: #fff; border: 1px solid var(--line); border-radius: 10px; overflow: hidden; }
th, td { text-align: left; padding: 8px 10px; border-bottom: 1px solid var(--line); vertical-align: middle; }
th { color: var(--muted); font-weight: 600; font-size: 12px; background: #fcfcfd; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
.pill { display: inline-block; padding: 1px 8px; border-radius: 999px; font-size: 12px; background: var(--bg); }
.pill.ok { color: var(--ok); } .pill.bad { color: var(--bad); }
form.inline { display: inline; }
.panel { background: #fff; border: 1px solid var(--line); border-radius: 10px; padding: 16px; max-width: 520px; }
label { display: block; margin: 10px 0 4px; font-weight: 600; }
input[type=text], input[type=email], input[type=number], select, textarea { width: 100%; padding: 8px 10px; border: 1px solid #d0d5dd; border-radius: 6px; font: inherit; }
button { font: inherit; padding: 8px 14px; border-radius: 6px; border: 1px solid var(--accent); background: var(--accent); color: #fff; cursor: pointer; margin-top: 12px; }
button.secondary { background: #fff; color: var(--accent); } button.danger { background: #fff; color: var(--bad); border-color: #f1aeb5; margin: 0; padding: 4px 10px; }
button.link { background: none; border: none; color: var(--accent); padding: 0; margin: 0; }
.status { min-height: 1.4em; color: var(--muted); } .status.error { color: var(--bad); }
.secret { font-family: ui-monospace, monospace; background: #fff8db; border: 1px solid #ffe066; padding: 10px; border-radius: 6px; word-break: break-all; }
.next { background: #edf2ff; border: 1px solid #bac8ff; border-radius: 10px; padding: 12px 14px; margin-bottom: 16px; }
.toolbar { display: flex; gap: 8px; align-items: center; margin-bottom: 12px; flex-wrap: wrap; }
.toolbar a { padding: 4px 10px; border-radius: 6px; border: 1px solid var(--line); background: #fff; color: var(--fg); text-decoration: none; }
.toolbar a.active { border-color: var(--accent); color: var(--accent); }
form.filters { display: flex; gap: 12px; align-items: flex-end; flex-wrap: wrap; margin-bottom: 12px; }
form.filters label { margin: 0; font-size: 12px; color: var(--muted); } form.filters input, form.filters select { min-width: 200px; margin-top: 2px; } form.filters button { margin: 0; }
pre.details { background: #fff; border: 1px solid var(--line); border-radius: 10px; padding: 12px; overflow: auto; max-height: 480px; font-size: 12px; }
`;
