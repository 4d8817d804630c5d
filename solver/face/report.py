"""An HTML page for a corpus run (``dipsat corpus PATH --report report.html``).

One self-contained file (no external scripts, styles or fonts): a summary, filters by status,
section and text, and per run of a case its id, title, source link, the map with its orders and
outcomes, the table of expected against actual outcomes, and the problems found.  The board of
each map, the style and the arrow heads are written once and referred to by every picture, so a
page of the whole DATC stays small.

Filters also read the page address: ``report.html#status=fail&section=6.F`` opens filtered.
"""

from __future__ import annotations

import re
from html import escape
from pathlib import Path
from typing import Any, Optional

from dipsat.io.corpus import CaseRun, PlayedGame, dislodged_units
from dipsat.face.render import COLOURS, legend_svg, power_colours, render_svg, shared_defs

PAGE_CSS = """
body{font:14px/1.4 sans-serif;margin:0;background:#f6f4ee;color:#222}
header{position:sticky;top:0;z-index:2;background:#2d3748;color:#fff;padding:10px 16px}
header h1{font-size:18px;margin:0 0 6px 0}
header .counts span{margin-right:14px}
header label{margin-right:10px}
.legend{padding:8px 16px 0 16px}
header select,header input{font:inherit}
main{padding:12px 16px}
section.case{background:#fff;border:1px solid #ddd6c4;border-left:6px solid #999;border-radius:6px;margin:0 0 16px 0;padding:10px 14px}
section.case.pass{border-left-color:%(ok)s}
section.case.fail{border-left-color:%(fail)s}
section.case.skip{border-left-color:#c9a227}
section.case h2{font-size:16px;margin:0 0 4px 0}
.badge{display:inline-block;padding:1px 8px;border-radius:10px;color:#fff;font-size:12px;margin-left:8px}
.badge.pass{background:%(ok)s}.badge.fail{background:%(fail)s}.badge.skip{background:#c9a227}
.meta{color:#555;font-size:13px;margin-bottom:6px}
.picture svg{max-width:100%%;height:auto}
table{border-collapse:collapse;margin:6px 0;font-size:13px}
td,th{border:1px solid #ddd6c4;padding:3px 8px;text-align:left;vertical-align:top}
th{background:#f1eee4}
td.ok{color:%(ok)s;font-weight:bold}td.bad{color:%(fail)s;font-weight:bold}
ul.problems{color:%(fail)s}
details{margin:4px 0}
[hidden]{display:none!important}
"""

SCRIPT = """
(function(){
  var cases=[].slice.call(document.querySelectorAll('section.case'));
  var st=document.getElementById('f-status'), se=document.getElementById('f-section'), q=document.getElementById('f-text');
  function apply(){
    var n=0, s=st.value, sec=se.value, text=q.value.toLowerCase();
    cases.forEach(function(c){
      var show=(s==='all'||c.dataset.status===s)&&(sec==='all'||c.dataset.section===sec)&&(!text||c.dataset.search.indexOf(text)>=0);
      c.hidden=!show; if(show){n++;}
    });
    document.getElementById('shown').textContent=n;
    document.body.setAttribute('data-shown', n);
  }
  var h=location.hash.replace(/^#/,'').split('&');
  h.forEach(function(kv){var p=kv.split('=');var v=decodeURIComponent(p[1]||'');
    if(p[0]==='status'){st.value=v;} if(p[0]==='section'){se.value=v;} if(p[0]==='q'){q.value=v;}});
  st.onchange=se.onchange=apply; q.oninput=apply; apply();
  document.body.setAttribute('data-ready','yes');
})();
"""


def section_of(run: CaseRun) -> str:
    """The section a case belongs to: ``6.F`` for DATC ids, else its corpus folder."""
    m = re.match(r"^(\d+\.[A-Z])\.", run.case_id)
    if m:
        return m.group(1)
    return Path(run.path).parent.name or "cases"


def status_of(run: CaseRun) -> str:
    return "pass" if run.passed else "skip" if run.skipped else "fail"


def _expected_rows(run: CaseRun) -> list[str]:
    exp = run.expectation
    res = run.result
    case = run.case
    if exp is None or res is None or case is None:
        return []
    movement = getattr(res, "movement", None) or res
    outs = list(movement.outcomes) + (list(res.outcomes) if movement is not res else [])
    rows = []
    for key, want in [*exp.orders.items(), *exp.retreats.items()]:
        text = key.split(":", 1)[1].strip() if ":" in key and key.split(":", 1)[0].strip() in (
            *case.orders, *case.retreat_orders) else key
        hits = [o for o in outs if o.text == text.strip()]
        if len(hits) == 1:
            o = hits[0]
            got = f"{o.result.replace('_', ' ')}"
            good = (o.succeeded if want == "succeeds" else
                    o.order_kind == "rejected" if want == "illegal" else
                    o.result == "partial" if want == "partial" else not o.succeeded)
            rows.append(f"<tr><td>{escape(key)}</td><td>{escape(want)}</td><td class=\"{'ok' if good else 'bad'}\">"
                        f"{escape(got)}</td><td>{escape(o.reason)}</td></tr>")
        else:
            rows.append(f"<tr><td>{escape(key)}</td><td>{escape(want)}</td><td class=\"bad\">"
                        f"{'not found' if not hits else 'several orders'}</td><td></td></tr>")
    got_dis = sorted(u.label() for u in dislodged_units(res))
    want_dis = sorted(exp.dislodged)
    rows.append(f"<tr><td><i>dislodged</i></td><td>{escape(', '.join(want_dis) or 'none')}</td>"
                f"<td>{escape(', '.join(got_dis) or 'none')}</td><td></td></tr>")
    if exp.backup is not None:
        kinds = ", ".join(sorted({b.kind for b in res.backups})) or "none"
        rows.append(f"<tr><td><i>backup rule</i></td><td>{escape(exp.backup)}</td><td class=\"{'ok' if kinds == exp.backup else 'bad'}\">"
                    f"{escape(kinds)}</td><td>{escape('; '.join(b.rule for b in res.backups))}</td></tr>")
    return rows


def _case_html(run: CaseRun, picture: str) -> str:
    status = status_of(run)
    case = run.case
    title = case.title if case else ""
    link = ""
    if case is not None and case.url:
        link = f'<a href="{escape(case.url)}">{escape(case.source or case.url)}</a>'
    elif case is not None and case.source:
        link = escape(case.source)
    search = " ".join([run.case_id, title, run.rules, run.path]).lower()
    out = [f'<section class="case {status}" id="{escape(run.case_id)}-{escape(run.rules)}" data-status="{status}" '
           f'data-section="{escape(section_of(run))}" data-search="{escape(search)}">',
           f"<h2>{escape(run.case_id)} {escape(title)}<span class=\"badge {status}\">{status}</span></h2>",
           f'<div class="meta">rules: <b>{escape(run.rules)}</b> · {link or "no source"} · {escape(run.path)}</div>']
    if case is not None and case.notes.strip():
        out.append(f"<details><summary>notes</summary><p>{escape(case.notes.strip())}</p></details>")
    if picture:
        out.append(f'<div class="picture">{picture}</div>')
    rows = _expected_rows(run)
    if rows:
        out.append("<table><thead><tr><th>order</th><th>expected</th><th>actual</th><th>why</th></tr></thead><tbody>"
                   + "".join(rows) + "</tbody></table>")
    if run.skipped:
        out.append(f"<p>skipped: {escape(run.skipped)}</p>")
    if run.problems:
        out.append('<ul class="problems">' + "".join(f"<li>{escape(p)}</li>" for p in run.problems) + "</ul>")
    out.append("</section>")
    return "".join(out)


def corpus_report(runs: list[CaseRun], title: str = "dipsat corpus report") -> str:
    """The HTML page of a corpus run."""
    from dipsat.face.render import variant_of

    pictures: list[str] = []
    maps: dict[str, Any] = {}
    for run in runs:
        pic = ""
        if run.result is not None:
            shown = run.result.last if isinstance(run.result, PlayedGame) else run.result  # a game: its last phase
            variant = variant_of(shown)  # the variant the result records
            maps[variant.map.name] = variant.map
            pic = render_svg(shown, title=f"{run.case_id} under {run.rules}", crop=True, shared=True)
        pictures.append(pic)
    colours: dict[str, str] = {}
    for m in maps.values():
        colours.update(power_colours(m, m.drawing().colours, []))
    counts = {s: sum(1 for r in runs if status_of(r) == s) for s in ("pass", "fail", "skip")}
    sections = sorted({section_of(r) for r in runs}, key=_natural)
    options = "".join(f'<option value="{escape(s)}">{escape(s)}</option>' for s in sections)
    css = PAGE_CSS % {"ok": COLOURS["ok"], "fail": COLOURS["fail"]}
    head = (f'<!doctype html><html lang="en"><head><meta charset="utf-8"><title>{escape(title)}</title>'
            f'<meta name="viewport" content="width=device-width, initial-scale=1"><style>{css}</style></head>')
    header = (f"<header><h1>{escape(title)}</h1><div class=\"counts\"><span>{len(runs)} runs</span>"
              f"<span>✔ {counts['pass']} passed</span><span>✘ {counts['fail']} failed</span>"
              f"<span>{counts['skip']} skipped</span><span>showing <b id=\"shown\">{len(runs)}</b></span></div>"
              f'<label>status <select id="f-status"><option value="all">all</option><option value="pass">pass</option>'
              f'<option value="fail">fail</option><option value="skip">skip</option></select></label>'
              f'<label>section <select id="f-section"><option value="all">all</option>{options}</select></label>'
              f'<label>search <input id="f-text" type="search" placeholder="id, title, rules"></label></header>'
              f'<div class="legend">{legend_svg(colours)}</div>')
    body = "".join(_case_html(r, p) for r, p in zip(runs, pictures))
    return (head + f'<body data-ready="no">{shared_defs(list(maps.values()))}{header}<main>{body}</main>'
            f"<script>{SCRIPT}</script></body></html>\n")


def _natural(text: str) -> list[Any]:
    return [int(x) if x.isdigit() else x for x in re.split(r"(\d+)", text)]


def write_report(runs: list[CaseRun], path: str | Path, title: Optional[str] = None) -> None:
    Path(path).write_text(corpus_report(runs, title or "dipsat corpus report"), encoding="utf-8")
