"""Accessibility audits in the browser: axe-core (pinned in package-lock.json, installed by ``./dev test``) is
injected into the page by Playwright and run against the rule sets the site promises to meet."""

from __future__ import annotations

import json
from pathlib import Path

AXE_SCRIPT = Path(__file__).resolve().parent.parent.parent / "node_modules" / "axe-core" / "axe.min.js"
AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]


def axe_violations(page, *, exclude: list[str] | None = None) -> list[dict]:
    """Run axe-core on ``page`` as it is now; return its violations (rule id, impact, help and the failing nodes).
    ``exclude`` lists CSS selectors of regions left out of the audit."""
    # Colours are measured as drawn: let the running animations end first (a reveal fading in has, for a moment,
    # too little contrast), all but the endless ones (a pulsing mark).
    page.wait_for_function(
        "() => document.getAnimations().every((a) => a.playState !== 'running'"
        " || a.effect.getComputedTiming().endTime === Infinity)"
    )
    if not page.evaluate("() => typeof window.axe !== 'undefined'"):
        # Evaluated through the browser's debugging protocol: a <script> tag of it would be an inline script, which
        # the site's Content-Security-Policy refuses (docs/security.md).
        page.evaluate(AXE_SCRIPT.read_text())
    result = page.evaluate(
        """async ([exclude, tags]) => await axe.run(
            exclude.length ? {include: [document], exclude: exclude.map((s) => [s])} : document,
            {runOnly: {type: 'tag', values: tags}})""",
        [exclude or [], AXE_TAGS],
    )
    return [
        {
            "id": violation["id"],
            "impact": violation["impact"],
            "help": violation["help"],
            "nodes": [node["target"] for node in violation["nodes"]][:10],
        }
        for violation in result["violations"]
    ]


def assert_accessible(page, where: str) -> None:
    """Fail with a readable list when axe-core finds any violation on ``page``."""
    violations = axe_violations(page)
    assert not violations, f"axe-core violations on {where}:\n" + json.dumps(violations, indent=2)
