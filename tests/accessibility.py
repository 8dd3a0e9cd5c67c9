"""axe-core's accessibility check of a page, as the browser, hub and scenario tests run it.

axe-core comes from a pinned PyPI package (``axe-playwright-python``, test extra, in
requirements/lock.txt), which ships ``axe.min.js`` in its wheel: nothing is fetched when the
check runs. The script is evaluated in the page through Playwright (the DevTools protocol,
like every ``page.evaluate``): no ``<script>`` is added and nothing is requested, so the
page's own origin rules and its request log stay as they were.

The rules are WCAG 2.0, 2.1 and 2.2, levels A and AA (axe's tags). Any violation of impact
serious or critical fails :func:`assert_accessible`, naming each rule (its id, impact and
help address) and the elements that break it (their selectors and markup). Moderate and
minor findings are not failures; :func:`axe_violations` returns them too, for a report.
"""

from __future__ import annotations

import time
from collections import Counter
from typing import Any

AXE_TAGS = ("wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa")
"""The WCAG 2 rules axe checks here: 2.0, 2.1 and 2.2, levels A and AA (axe's rules of
2.2 are of level AA: the size of touch targets)."""
FAILING_IMPACTS = ("serious", "critical")
"""The violations that fail the check."""


def axe_violations(page: Any, within: str | None = None) -> list[dict[str, Any]]:
    """Every WCAG 2 A/AA violation axe finds in ``page`` (a Playwright Page), or only in
    the elements matching the CSS selector ``within``: axe's result objects (``id``,
    ``impact``, ``help``, ``helpUrl``, ``nodes``)."""
    from axe_playwright_python.sync_playwright import Axe

    if within is not None and not page.locator(within).count():
        raise AssertionError(f"nothing in the page matches {within!r}: axe would check nothing")
    options = {"runOnly": {"type": "tag", "values": list(AXE_TAGS)}, "resultTypes": ["violations"]}
    found: list[dict[str, Any]] = (
        Axe().run(page, context=within, options=options).response["violations"]
    )
    return found


def serious(violations: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The violations of impact serious or critical."""
    return [violation for violation in violations if violation["impact"] in FAILING_IMPACTS]


def describe(violations: list[dict[str, Any]]) -> str:
    """Each violation as a few lines a reader can act on: the rule, its impact and what it
    asks, its help address, then each element that breaks it (selector, then markup)."""
    lines = []
    for violation in violations:
        lines.append(
            f"- {violation['id']} ({violation['impact']}): {violation['help']}"
            f"\n  {violation['helpUrl']}"
        )
        for node in violation["nodes"]:
            target = " ".join(str(part) for part in node["target"])
            lines.append(f"    {target}\n      {node['html'][:200]}")
    return "\n".join(lines)


def assert_accessible(page: Any, where: str, within: str | None = None) -> list[dict[str, Any]]:
    """Fail if axe finds a serious or critical WCAG 2 A/AA violation in ``page`` (or in
    ``within``, a CSS selector), naming ``where`` (the page and its state) and each
    violation; return every violation found (the lesser ones too). The run's line (what
    was found, by impact, and how long axe took) is printed, for ``pytest -s``."""
    started = time.monotonic()
    found = axe_violations(page, within)
    impacts = Counter(str(violation["impact"]) for violation in found)
    print(
        f"\n[axe] {where}: {sum(impacts.values())} violation(s)"
        + "".join(f", {impact} {count}" for impact, count in sorted(impacts.items()))
        + f" in {time.monotonic() - started:.1f} s"
    )
    failing = serious(found)
    assert not failing, (
        f"{where}: {len(failing)} serious or critical accessibility violation(s) "
        f"(axe-core, WCAG 2 A/AA):\n{describe(failing)}"
    )
    return found
