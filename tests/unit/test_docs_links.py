"""Every link between the documentation's pages, and to a heading in one, leads somewhere.

The pages link to each other's headings (``bots.md#levels``); a heading
renamed or moved to another page must not leave a link behind that leads
nowhere.  Anchors are made as GitHub makes them: the heading in lower case,
punctuation dropped, spaces as hyphens, ``-1``, ``-2`` … for repeats.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGES = [*sorted((ROOT / "docs").rglob("*.md")), ROOT / "README.md"]
LINK = re.compile(r"\]\(([^)\s#]*)(?:#([^)\s]+))?\)")
HEADING = re.compile(r"^(#{1,6}) (.*)$")


def anchors(text: str) -> set[str]:
    """The anchors of a page's headings (outside fenced code)."""
    seen: dict[str, int] = {}
    out = set()
    fenced = False
    for line in text.splitlines():
        if line.startswith("```"):
            fenced = not fenced
            continue
        m = HEADING.match(line)
        if fenced or not m:
            continue
        base = "".join(ch for ch in m.group(2).strip().lower().replace("`", "") if ch.isalnum() or ch in "-_ ")
        base = base.replace(" ", "-")
        n = seen.get(base, 0)
        seen[base] = n + 1
        out.add(base if n == 0 else f"{base}-{n}")
    return out


def test_the_anchor_of_a_heading_is_githubs():
    text = "# Bots\n## The expert against `strong` at every table size\n## Levels\n## Levels\n"
    assert anchors(text) == {"bots", "the-expert-against-strong-at-every-table-size", "levels", "levels-1"}
    assert anchors("```\n# not a heading\n```\n## Кто ходит (C13)\n") == {"кто-ходит-c13"}


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_every_link_to_a_page_or_a_heading_leads_somewhere(page):
    text = page.read_text(encoding="utf-8")
    broken = []
    for target, anchor in LINK.findall(text):
        if target.startswith(("http://", "https://", "mailto:")):
            continue
        path = (page.parent / target).resolve() if target else page
        if not path.exists():
            broken.append(f"{target}: no such file")
            continue
        if anchor and path.suffix == ".md" and anchor not in anchors(path.read_text(encoding="utf-8")):
            broken.append(f"{target or page.name}#{anchor}: no such heading")
    assert not broken, f"{page.name}: " + "; ".join(broken)
