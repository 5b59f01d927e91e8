"""The report's one inline stylesheet (allowed by its CSP hash; no style attributes anywhere).

Verdict colours follow the Okabe–Ito colour-blind-safe palette, darkened for text contrast; each
verdict also has its own icon, label and border style, so grey-scale print still tells them apart.
"""
from __future__ import annotations

STYLE = """
:root{--ink:#1d1f21;--muted:#5b6168;--line:#d5d9de;--paper:#fff;--soft:#f5f6f8;--focus:#1a5fb4;
--fabricated:#8e2c6e;--fabricated-bg:#f7e3f0;--dead:#b23a00;--dead-bg:#fbe6dc;--soft-404:#825400;--soft-404-bg:#fcefcf;
--unsupported:#005b8f;--unsupported-bg:#ddeefa;--unverifiable:#4a5563;--unverifiable-bg:#e9edf1;
--live:#006b4b;--live-bg:#ddf3ea;--unchecked:#5b6168;--unchecked-bg:#f3f4f6;
--error:#b3261e;--warning:#825400;--info:#005b8f;--mono:ui-monospace,"DejaVu Sans Mono",Menlo,Consolas,monospace}
*{box-sizing:border-box}
[hidden]{display:none!important}
html{scroll-padding-top:4.5rem}
body{margin:0;font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",sans-serif;color:var(--ink);
background:var(--paper)}
a{color:var(--focus)}
:focus-visible{outline:3px solid var(--focus);outline-offset:2px}
.skip{position:absolute;left:.5rem;top:-3rem;z-index:20;background:var(--paper);padding:.4rem .8rem;border:2px solid var(--focus)}
.skip:focus{top:.5rem}
.top{position:sticky;top:0;z-index:10;display:flex;flex-wrap:wrap;gap:.25rem 1.25rem;align-items:center;
padding:.5rem 1.25rem;background:#20252b;color:#fff}
.top .brand{margin:0;font-weight:700}
.top nav ul{display:flex;flex-wrap:wrap;gap:.25rem 1rem;margin:0;padding:0;list-style:none}
.top a{color:#fff}
main{display:block;max-width:1240px;margin:0 auto;padding:1rem 1.25rem 3rem}
main:focus{outline:none}
h1{font-size:1.5rem;margin:.5rem 0}
h1,h2,h3,p,li,dd,th,td{overflow-wrap:anywhere}
h2{font-size:1.25rem;margin:2rem 0 .75rem;padding-bottom:.25rem;border-bottom:2px solid var(--line)}
h3{font-size:1rem;margin:0 0 .5rem}
h4{font-size:.9rem;margin:.75rem 0 .25rem}
.lede,.hint,.mode,.none,.muted,.where,.kicker,small{color:var(--muted)}
.kicker{font-size:.8rem;font-weight:600;text-transform:uppercase;letter-spacing:.05em;display:block}
#summary{display:grid;grid-template-columns:repeat(auto-fit,minmax(280px,1fr));gap:1rem}
#summary>h2{grid-column:1/-1}
.card{border:1px solid var(--line);border-radius:8px;padding:.75rem 1rem;background:var(--paper);min-width:0}
.card.wide{grid-column:1/-1}
.totals{display:grid;grid-template-columns:repeat(auto-fill,minmax(7.5rem,1fr));gap:.5rem;margin:0}
.totals div{background:var(--soft);border-radius:6px;padding:.35rem .6rem}
.totals dt{font-size:.8rem;color:var(--muted)}
.totals dd{margin:0;font-size:1.35rem;font-weight:700}
.big{font-size:1.6rem;margin:.25rem 0}
.score{display:inline-flex;align-items:center;gap:.35rem;white-space:nowrap}
.score .num{font-weight:700}.score .of{color:var(--muted);font-size:.8em}
.score .bar{width:6rem;height:.6rem;border:1px solid var(--ink);border-radius:2px}
.big .score .bar{width:12rem;height:1rem}
.bar .track{fill:var(--soft)}
.score.good .fill{fill:var(--live)}.score.fair .fill{fill:var(--soft-404)}.score.poor .fill{fill:var(--dead)}
.stack{width:100%;height:1.5rem;border:1px solid var(--ink);border-radius:3px;margin:.25rem 0 .5rem}
.legend,.plain,.chips{list-style:none;margin:0;padding:0}
.legend li{margin:.2rem 0}.legend .blurb{color:var(--muted);font-size:.85rem}
.chips{display:flex;flex-wrap:wrap;gap:.25rem .6rem}
.plain li{margin:.15rem 0}
.table-wrap{overflow-x:auto;max-width:100%}
table{border-collapse:collapse;width:100%;font-size:.9rem}
caption{text-align:left;color:var(--muted);padding:.25rem 0}
th,td{border-bottom:1px solid var(--line);padding:.35rem .5rem;text-align:left;vertical-align:top}
thead th{background:var(--soft);white-space:nowrap}
th[scope=row]{font-weight:600}
td small{display:block}
th button{font:inherit;font-weight:700;background:none;border:0;padding:0;cursor:pointer;color:inherit}
th button::after{content:" \\2195";color:var(--muted)}
th[aria-sort=ascending] button::after{content:" \\2191"}th[aria-sort=descending] button::after{content:" \\2193"}
td .url{font-family:var(--mono);font-size:.8rem;overflow-wrap:anywhere}
.filters{display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:end;margin:.5rem 0}
.filters label{display:flex;flex-direction:column;font-size:.8rem;color:var(--muted)}
.filters select,.filters input{font:inherit;color:var(--ink);padding:.2rem .35rem;min-height:2rem}
.filters output{color:var(--muted);font-size:.85rem}
.ic{width:1em;height:1em;vertical-align:-.15em;fill:none;stroke:currentColor;stroke-width:2;stroke-linecap:round;
stroke-linejoin:round;flex:none}
.sprite{position:absolute;width:0;height:0;overflow:hidden}
.badge{display:inline-flex;align-items:center;gap:.2em;font-size:.75rem;font-weight:700;text-transform:uppercase;
letter-spacing:.03em;padding:0 .35em;border-radius:3px;border:1px solid;white-space:nowrap;line-height:1.5;
color:var(--c);background:var(--bg);print-color-adjust:exact;-webkit-print-color-adjust:exact}
.sev{display:inline-flex;align-items:center;gap:.2em;font-weight:700;font-size:.8rem;text-transform:uppercase;
white-space:nowrap;overflow-wrap:normal}
.sev-error{color:var(--error)}.sev-warning{color:var(--warning)}.sev-info{color:var(--info)}
.v-fabricated{--c:var(--fabricated);--bg:var(--fabricated-bg);--b:3px double}
.v-dead{--c:var(--dead);--bg:var(--dead-bg);--b:2px solid}
.v-soft-404{--c:var(--soft-404);--bg:var(--soft-404-bg);--b:2px dashed}
.v-unsupported{--c:var(--unsupported);--bg:var(--unsupported-bg);--b:2px dotted}
.v-unverifiable{--c:var(--unverifiable);--bg:var(--unverifiable-bg);--b:1px dashed}
.v-live{--c:var(--live);--bg:var(--live-bg);--b:1px solid}
.v-unchecked{--c:var(--unchecked);--bg:var(--unchecked-bg);--b:1px dotted}
.stack rect{fill:var(--c)}
.memo-meta{display:flex;flex-wrap:wrap;gap:.5rem 1.25rem;align-items:center;margin-bottom:.75rem}
.memo-meta p{margin:0;color:var(--muted)}
.src{border:1px solid var(--line);border-radius:8px;overflow:hidden;font:13px/1.6 var(--mono)}
.ln{display:grid;grid-template-columns:3.75rem minmax(0,1fr);border-left:4px solid transparent}
.ln .no{color:var(--muted);text-align:right;padding-right:.75rem;background:var(--soft);user-select:none}
.ln .no::before{content:attr(data-n)}
.ln .tx{font:inherit;white-space:pre-wrap;overflow-wrap:anywhere;padding:0 .5rem;min-height:1.6em}
.ln.h .tx{font-weight:700;color:#0b3d6b}.ln.h1 .tx,.ln.h2 .tx{font-size:1.08em}
.ln.code .tx{background:#f7f7f2}
.ln.p-error{border-left-color:var(--error)}.ln.p-warning{border-left-color:var(--warning)}.ln.p-info{border-left-color:var(--info)}
.cite{color:inherit;text-decoration:none;background:var(--bg);border-bottom:var(--b) var(--c);border-radius:3px;
padding:0 .1em;print-color-adjust:exact;-webkit-print-color-adjust:exact}
.cite .badge{font-size:.7rem;margin-right:.25em;vertical-align:.08em;border:0;padding:0 .2em}
.cite:hover .u{text-decoration:underline}
.cite:focus-visible{outline:3px solid var(--focus);outline-offset:1px}
.evs{margin:0 0 .35rem 3.75rem;padding:.1rem .5rem;font:14px/1.45 system-ui,-apple-system,"Segoe UI","DejaVu Sans",sans-serif}
.ev{border:1px solid var(--line);border-left:var(--b,3px solid) var(--c,var(--muted));border-radius:4px;margin:.2rem 0;
background:var(--paper)}
.ev>summary{cursor:pointer;padding:.15rem .5rem;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
.ev[open]>summary{white-space:normal;border-bottom:1px solid var(--line)}
.ev>summary .u{font-family:var(--mono);font-size:.85em}
.ev .gist{color:var(--muted)}.ev .more{font-size:.8em;color:var(--muted)}
.panel{padding:.4rem .75rem .6rem}
.panel .why{margin:.25rem 0}
.facts{display:grid;grid-template-columns:max-content minmax(0,1fr);gap:.15rem .75rem;margin:.5rem 0}
.facts dt{font-weight:600;color:var(--muted)}.facts dd{margin:0;overflow-wrap:anywhere}
.chain{margin:0;padding-left:1.25rem}.chain .st{font-family:var(--mono);font-weight:700}
.findings{list-style:none;margin:0;padding:0}
.finding{border-top:1px dashed var(--line);padding:.35rem 0}
.finding:first-child{border-top:0}
.finding .msg{margin:.15rem 0}
.rule{font-weight:700}.slug{color:var(--muted)}
.evd,.fix{margin:.15rem 0}.k{font-weight:600}
.fix{background:var(--live-bg);padding:.15rem .4rem;border-radius:3px}
.passage{margin:.35rem 0}.passage figcaption{font-weight:600}
.passage blockquote{margin:.2rem 0;padding:.3rem .6rem;border-left:4px solid var(--unsupported);background:var(--soft)}
.nolink{font-family:var(--mono);overflow-wrap:anywhere}
.memo h2 .kicker{margin-bottom:.1rem}
.suppressed{margin-top:1rem}
.harvest-section h3{margin-top:1.25rem}
@media (max-width:700px){
body{font-size:14px}
.top{position:static;padding:.5rem .75rem}
main{padding:.75rem .6rem 2rem}
.ln{grid-template-columns:2.4rem minmax(0,1fr)}
.ln .no{padding-right:.35rem}
.evs{margin-left:.4rem;padding:.1rem 0}
.facts{grid-template-columns:1fr}.facts dd{margin-bottom:.3rem}
.big .score .bar{width:8rem}
.stackable thead tr{display:flex;flex-wrap:wrap;gap:0 .75rem}
.stackable thead th{border:0;background:none;padding:.2rem 0}
.stackable tr{display:block;border-bottom:1px solid var(--line);padding:.35rem 0}
.stackable td,.stackable tbody th{display:inline-block;border:0;padding:.1rem .5rem .1rem 0}
.stackable td.wide{display:block}
.stackable caption{display:block}
}
@media print{
body{font-size:11pt}
.top{position:static;background:none;color:var(--ink);border-bottom:1px solid var(--ink)}
.top a{color:var(--ink)}
.skip,.filters,th button::after{display:none}
main{max-width:none;padding:0}
.card,.ev,tr{break-inside:avoid}
.src{overflow:visible}
.ev>summary{white-space:normal}
}
@media print{details::details-content{content-visibility:visible;display:block}}
"""
