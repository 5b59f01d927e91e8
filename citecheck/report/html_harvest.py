"""`citecheck harvest --report report.html`: kept and rejected candidates per section, with reasons.

Input shape of `render_harvest_report(result)` (plain data; every key optional unless noted)::

    {
      "title": "Harvest for acme-memo",            # page heading
      "generated_at": "2026-11-29T14:00:00Z",      # shown only when given (output stays reproducible)
      "sections": {                                # required; or a list of {"name": ..., "kept": ..., "rejected": ...}
        "Market size": {
          "kept": [                                # corpus entries: dicts or `Source` objects
            {"id": "src-001", "url": "https://…", "title": "…", "final_url": "…", "status": 200,
             "retrieval_query": "…", "snippet": "…"},
          ],
          "rejected": [                            # candidates that failed the gate
            {"url": "https://…", "title": "…", "reasons": ["free-text reason", …],
             "findings": [Finding or Finding.to_dict(), …]},
          ],
        },
      },
      "merge": {                                   # what re-harvesting did to the corpus it merged into
        "counts": {"kept": 3, "refreshed": 1, "added": 2, "stale": 1, "retired": 1},
        "rows": [{"state": "retired", "id": "src-004", "url": "https://…", "detail": "H001 http-error: …"}, …],
      },
    }

Every string is escaped; URLs link only when http(s). The page shares the audit report's shell,
stylesheet, script and CSP, so it is just as self-contained.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any

from citecheck.models import Finding
from citecheck.report.html_evidence import badge, severity
from citecheck.report.html_markup import esc, link_or_text, number
from citecheck.report.html_page import page
from citecheck.report.html_verdicts import BY_KEY, finding_verdict


def render_harvest_report(result: Mapping[str, Any]) -> str:
    """The harvest review page for `result` (shape in the module docstring), as a string."""
    sections = _sections(result.get("sections") or {})
    title = str(result.get("title") or "citecheck harvest: kept and rejected sources")
    when = f" Generated {esc(result['generated_at'])}." if result.get("generated_at") else ""
    kept = sum(len(s["kept"]) for s in sections)
    rejected = sum(len(s["rejected"]) for s in sections)
    lede = (f"{kept} sources kept and {rejected} candidates rejected across {len(sections)} sections. "
            f"Only kept sources received IDs and entered the corpus.{when}")
    body = _overview(sections, _merge(result.get("merge"))) + "".join(_section(n, s) for n, s in enumerate(sections, 1))
    nav = [("summary", "Summary")] + [(f"s{n}", str(s["name"])) for n, s in enumerate(sections[:8], 1)]
    return page(title, title, body, nav, lede)


def _sections(raw: Any) -> list[dict[str, Any]]:
    items = raw.items() if isinstance(raw, Mapping) else ((s.get("name", ""), s) for s in raw)
    return [{"name": str(name or "(no section)"), "kept": [_plain(k) for k in body.get("kept") or []],
             "rejected": [_plain(r) for r in body.get("rejected") or []]} for name, body in items]


def _plain(item: Any) -> dict[str, Any]:
    return dict(item.to_dict()) if hasattr(item, "to_dict") else dict(item)


def _findings(item: Mapping[str, Any]) -> list[Finding]:
    out = []
    for f in item.get("findings") or []:
        if isinstance(f, Finding):
            out.append(f)
            continue
        out.append(Finding.from_dict(f))
    return out


def _merge(merge: Any) -> str:
    """The merge table: the count of each state, then every source that did not stay as it was."""
    if not isinstance(merge, Mapping) or not merge.get("counts"):
        return ""
    counts = "".join(f"<li>{esc(state)} <b>{number(int(n))}</b></li>" for state, n in merge["counts"].items())
    rows = "".join(f'<tr><td>{esc(r.get("state", ""))}</td><td><code>{esc(r.get("id", ""))}</code></td>'
                   f'<td class="url">{link_or_text(str(r.get("url", "")))}</td><td>{esc(r.get("detail", ""))}</td></tr>'
                   for r in merge.get("rows") or [] if r.get("state") != "kept")
    table = (f'<div class="table-wrap"><table class="stackable" aria-labelledby="merge-h"><thead><tr><th scope="col">'
             f'State</th><th scope="col">ID</th><th scope="col">URL</th><th scope="col">Why</th></tr></thead><tbody>'
             f'{rows}</tbody></table></div>') if rows else ""
    return f'<div class="card wide"><h3 id="merge-h">Merge into the corpus</h3><ul class="plain">{counts}</ul>{table}</div>'


def _overview(sections: list[dict[str, Any]], merge: str = "") -> str:
    rows, reasons = [], Counter[str]()
    for n, s in enumerate(sections, 1):
        kept, rejected = len(s["kept"]), len(s["rejected"])
        total = kept + rejected or 1
        bar = (f'<svg class="stack" viewBox="0 0 100 10" preserveAspectRatio="none" role="img" aria-label="'
               f'{kept} kept, {rejected} rejected"><rect class="v-live" width="{100 * kept / total:.2f}" height="10"/>'
               f'<rect class="v-dead" x="{100 * kept / total:.2f}" width="{100 * rejected / total:.2f}" height="10"/></svg>')
        rows.append(f'<tr><th scope="row"><a href="#s{n}">{esc(s["name"])}</a></th><td data-k="{kept:06d}" '
                    f'data-kept="{n}">{kept}</td><td data-k="{rejected:06d}" data-rejected="{n}">{rejected}</td>'
                    f'<td class="wide">{bar}</td></tr>')
        for item in s["rejected"]:
            reasons.update(f"{f.rule} {f.name}" for f in _findings(item))
    head = "".join(f'<th scope="col" data-sort>{h}</th>' for h in ("Section", "Kept", "Rejected"))
    top = "".join(f"<li><code>{esc(k)}</code> <b>{number(v)}</b></li>" for k, v in
                  sorted(reasons.items(), key=lambda kv: (-kv[1], kv[0])))
    why = f'<div class="card"><h3>Why candidates were rejected</h3><ul class="plain">{top}</ul></div>' if top else ""
    return (f'<section id="summary" aria-labelledby="summary-h"><h2 id="summary-h">Summary</h2>'
            f'<div class="card wide"><h3 id="hs-h">Sections</h3><div class="table-wrap"><table class="sortable stackable"'
            f' aria-labelledby="hs-h"><thead><tr>{head}<th scope="col">Kept vs rejected</th></tr></thead>'
            f'<tbody>{"".join(rows)}</tbody></table></div></div>{merge}{why}</section>')


def _section(n: int, s: Mapping[str, Any]) -> str:
    kept = "".join(_kept_row(item) for item in s["kept"]) or '<tr><td colspan="4">None kept.</td></tr>'
    rejected = "".join(_rejected_row(item) for item in s["rejected"]) or '<tr><td colspan="3">None rejected.</td></tr>'
    return (f'<section class="harvest-section" id="s{n}" aria-labelledby="s{n}-h"><h2 id="s{n}-h">{esc(s["name"])}</h2>'
            f'<h3 id="s{n}-k">Kept ({len(s["kept"])})</h3><div class="table-wrap"><table class="sortable stackable" '
            f'aria-labelledby="s{n}-k"><thead><tr><th scope="col" data-sort>ID</th><th scope="col" data-sort>Title</th>'
            f'<th scope="col">URL</th><th scope="col" data-sort>Status</th></tr></thead><tbody>{kept}</tbody></table></div>'
            f'<h3 id="s{n}-r">Rejected ({len(s["rejected"])})</h3><div class="table-wrap"><table class="stackable" '
            f'aria-labelledby="s{n}-r"><thead><tr><th scope="col">Verdict</th><th scope="col">Candidate</th>'
            f'<th scope="col">Reasons</th></tr></thead><tbody>{rejected}</tbody></table></div></section>')


def _kept_row(item: Mapping[str, Any]) -> str:
    url = str(item.get("url", ""))
    final = str(item.get("final_url") or "")
    moved = f'<br><small>final: {link_or_text(final)}</small>' if final and final != url else ""
    query = f'<br><small>query: {esc(item["retrieval_query"])}</small>' if item.get("retrieval_query") else ""
    return (f'<tr><td><code>{esc(item.get("id", ""))}</code></td><td>{esc(item.get("title", ""))}{query}</td>'
            f'<td class="url">{link_or_text(url)}{moved}</td><td>{esc(item.get("status", "") or "")}</td></tr>')


def _rejected_row(item: Mapping[str, Any]) -> str:
    found = _findings(item)
    verdicts = [v[0] for v in (finding_verdict(f) for f in found) if v]
    shown = badge(max(verdicts, key=lambda k: BY_KEY[k].rank)) if verdicts else '<span class="muted">rejected</span>'
    title = f'<br>{esc(item["title"])}' if item.get("title") else ""
    reasons = [f'<li>{esc(r)}</li>' for r in _strings(item.get("reasons"))]
    reasons += [f'<li>{severity(f.severity.value)} <code class="rule">{esc(f.rule)}</code> <span class="slug">'
                f'{esc(f.name)}</span> {esc(f.message)}{_extra(f)}</li>' for f in found]
    return (f'<tr><td>{shown}</td><td class="url">{link_or_text(str(item.get("url", "")))}{title}</td>'
            f'<td class="wide"><ul class="plain">{"".join(reasons)}</ul></td></tr>')


def _extra(f: Finding) -> str:
    evidence = f' <q>{esc(f.evidence)}</q>' if f.evidence else ""
    return evidence + (f' — fix: {link_or_text(f.fix)}' if f.fix else "")


def _strings(value: Any) -> Iterable[str]:
    if isinstance(value, str):
        return [value]
    return [str(v) for v in value or []]
