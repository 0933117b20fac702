"""Every relative link of every Markdown file of the repository leads somewhere: to a file or folder that exists
and, when the link names a heading (``page.md#a-heading``), to a heading of that page. Links to other sites are
not followed (the suite runs offline)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SKIPPED = {".venv", "node_modules", ".git", "var", "staticfiles"}
LINK = re.compile(r"(?<!!)\[[^\]]*\]\(([^)\s]+)\)")
FENCE = re.compile(r"^(```|~~~).*?^\1", re.MULTILINE | re.DOTALL)


def markdown_files() -> list[Path]:
    return sorted(
        path for path in ROOT.rglob("*.md") if not SKIPPED & set(path.relative_to(ROOT).parts)
    )


def anchor(heading: str) -> str:
    """GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"[`*_]", "", heading.strip().lower())
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    text = FENCE.sub("", path.read_text())
    return {anchor(line.lstrip("#")) for line in text.splitlines() if re.match(r"#{1,6} ", line)}


def broken_links(path: Path, root: Path = ROOT) -> list[str]:
    broken = []
    for target in LINK.findall(FENCE.sub("", path.read_text())):
        if re.match(r"[a-z]+:", target):
            continue  # another site, or mailto:
        file_part, _, fragment = target.partition("#")
        where = (path.parent / file_part).resolve() if file_part else path
        if not where.exists():
            broken.append(f"{path.relative_to(root)}: {target} (no such file)")
        elif fragment and where.suffix == ".md" and fragment not in anchors(where):
            broken.append(f"{path.relative_to(root)}: {target} (no such heading)")
    return broken


def test_every_relative_link_of_the_markdown_files_resolves():
    assert len(markdown_files()) > 10  # README.md, docs/, the SDK's, the client's, the benchmarks'
    broken = [line for path in markdown_files() for line in broken_links(path)]
    assert broken == []


def test_a_broken_link_and_a_missing_heading_are_caught(tmp_path):
    (tmp_path / "other.md").write_text("# Other page\n\n## A heading, with `code`\n")
    page = tmp_path / "page.md"
    page.write_text(
        "[fine](other.md) [fine too](other.md#a-heading-with-code) [here](#title) [web](https://example.org)\n"
        "# Title\n[gone](missing.md) [no heading](other.md#nowhere)\n```\n[in code](ignored.md)\n```\n"
    )
    found = [line.split(": ", 1)[1] for line in broken_links(page, tmp_path)]
    assert found == ["missing.md (no such file)", "other.md#nowhere (no such heading)"]



def test_the_readme_is_an_entry_hall_that_leads_to_the_walk_of_a_move():
    readme = (ROOT / "README.md").read_text()
    assert len(readme.encode()) <= 10 * 1024
    assert "(docs/architecture.md)" in readme
    assert "the-walk-of-one-move" in anchors(ROOT / "docs" / "architecture.md")
