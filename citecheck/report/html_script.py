"""The report's one inline script, and its CSP hash. The page works without it.

It opens the evidence panel a highlight or table link points at (and moves focus to it), opens
every panel before printing, and makes the findings table filterable and tables sortable.
"""
from __future__ import annotations

import base64
import hashlib

SCRIPT = r"""
(function () {
  "use strict";
  var doc = document, each = function (list, fn) { Array.prototype.forEach.call(list, fn); };
  doc.documentElement.classList.add("js");
  function reveal(id, focus) {
    var el = id ? doc.getElementById(id) : null;
    if (!el || el.tagName !== "DETAILS") { return; }
    el.open = true;
    var summary = el.querySelector("summary");
    // after the link's own fragment navigation, which would otherwise take focus back
    if (focus && summary) { window.setTimeout(function () { summary.focus(); }, 0); }
  }
  function fromHash() {
    try { reveal(decodeURIComponent(location.hash.slice(1)), false); } catch (e) { /* malformed hash */ }
  }
  window.addEventListener("hashchange", fromHash);
  fromHash();
  doc.addEventListener("click", function (event) {
    var link = event.target.closest ? event.target.closest('a[href^="#"]') : null;
    if (link) { reveal(link.getAttribute("href").slice(1), true); }
  });
  var opened = [];
  window.addEventListener("beforeprint", function () {
    each(doc.querySelectorAll("details:not([open])"), function (d) { d.open = true; opened.push(d); });
  });
  window.addEventListener("afterprint", function () {
    opened.forEach(function (d) { d.open = false; });
    opened = [];
  });
  function sortKey(cell) {
    var k = cell.getAttribute("data-k");
    return k !== null ? k : cell.textContent.trim().toLowerCase();
  }
  each(doc.querySelectorAll("table.sortable"), function (table) {
    var headers = table.tHead.rows[0].cells;
    each(headers, function (th, column) {
      if (!th.hasAttribute("data-sort")) { return; }
      var button = doc.createElement("button");
      button.type = "button";
      button.textContent = th.textContent;
      th.textContent = "";
      th.appendChild(button);
      button.addEventListener("click", function () {
        var dir = th.getAttribute("aria-sort") === "ascending" ? -1 : 1, body = table.tBodies[0];
        each(headers, function (h) { h.removeAttribute("aria-sort"); });
        th.setAttribute("aria-sort", dir === 1 ? "ascending" : "descending");
        var rows = Array.prototype.slice.call(body.rows);
        rows.sort(function (a, b) {
          var x = sortKey(a.cells[column]), y = sortKey(b.cells[column]);
          return (x < y ? -1 : x > y ? 1 : 0) * dir;
        });
        rows.forEach(function (row) { body.appendChild(row); });
      });
    });
  });
  var form = doc.getElementById("ffilters"), table = doc.getElementById("ftable");
  if (form && table) {
    var rule = doc.getElementById("f-rule"), sev = doc.getElementById("f-sev");
    var text = doc.getElementById("f-q"), count = doc.getElementById("f-count");
    var apply = function () {
      var rows = table.tBodies[0].rows, shown = 0, q = text.value.trim().toLowerCase();
      each(rows, function (row) {
        var ok = (!rule.value || row.getAttribute("data-rule") === rule.value) &&
          (!sev.value || row.getAttribute("data-sev") === sev.value) &&
          (!q || row.textContent.toLowerCase().indexOf(q) >= 0);
        row.hidden = !ok;
        if (ok) { shown += 1; }
      });
      count.textContent = shown + " of " + rows.length + " findings shown";
    };
    form.hidden = false;
    form.addEventListener("input", apply);
    form.addEventListener("change", apply);
    form.addEventListener("submit", function (event) { event.preventDefault(); });
  }
}());
"""


def csp_hash(text: str) -> str:
    """The CSP source expression ('sha256-…') allowing exactly this inline script or style."""
    digest = hashlib.sha256(text.encode("utf-8")).digest()
    return f"'sha256-{base64.b64encode(digest).decode('ascii')}'"
