"""Speed of the app as a learner feels it: page load to interactive, and click to feedback.

Starts the app as the README does (``bash scripts/app.sh``, on a free port, serving a
scratch folder with the worked example and ``benchmarks/single_button.ipynb``, a
reference page holding one button), then drives Debian's Chromium with Playwright and
measures, in the same run and interleaved (so both pages share the machine's load):

- navigation to interactive: from the start of the navigation (the page's
  ``performance.timeOrigin``) to the first frame where the page's button is on screen
  (the worked example's Next, the reference page's button): Voila has started a kernel,
  run the notebook, sent the page, and the widgets are live;
- click to feedback: from a click on the button to the change it causes on the page (the
  next step of the worked example; the reference page's counter): one round trip to the
  kernel and back, as for a quiz answer.

Targets: the worked example within 1.2x the reference page's load time, and feedback
under 100 ms. Figures are printed, never asserted (timings depend on the machine's load,
printed too). Run: ``.venv/bin/python benchmarks/app_benchmark.py [--runs 7]``.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from browser.app_process import AppServer, launch_chromium
from process_guard import sigterm_as_exit

WORKED = "08_worked_example.ipynb"
REFERENCE = "single_button.ipynb"
READY_SELECTOR = {WORKED: "button.tutor-step-next", REFERENCE: "button.bench-button"}
FEEDBACK_TARGET = {WORKED: ".tutor-step-page", REFERENCE: ".bench-feedback"}

# Records, on the first animation frame where the button is visible, the time since the
# navigation started (performance.now() counts from performance.timeOrigin).
READY_PROBE = """
(() => {
  const selector = %r;
  const look = () => {
    const node = document.querySelector(selector);
    if (node && node.offsetParent !== null) {
      window.__tutorReady = performance.now();
    } else {
      requestAnimationFrame(look);
    }
  };
  requestAnimationFrame(look);
})();
"""

CLICK_TO_FEEDBACK = """
([button, target]) => new Promise((resolve) => {
  const node = document.querySelector(target);
  const observer = new MutationObserver(() => {
    observer.disconnect();
    resolve(performance.now() - started);
  });
  observer.observe(node, { childList: true, subtree: true, characterData: true });
  const started = performance.now();
  document.querySelector(button).click();
})
"""


def measure_load(browser: Any, url: str, notebook: str) -> tuple[float, Any, Any]:
    """Milliseconds from navigation to interactive; the context and page stay open."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.add_init_script(READY_PROBE % READY_SELECTOR[notebook])
    page.goto(url, wait_until="commit")
    page.wait_for_function("window.__tutorReady !== undefined", timeout=120_000)
    return float(page.evaluate("window.__tutorReady")), context, page


def measure_clicks(page: Any, notebook: str, clicks: int) -> list[float]:
    """Milliseconds from each click to the change it makes on the page."""
    timings = []
    for _ in range(clicks):
        page.wait_for_timeout(50)  # let the previous change settle
        timings.append(
            float(
                page.evaluate(
                    CLICK_TO_FEEDBACK, [READY_SELECTOR[notebook], FEEDBACK_TARGET[notebook]]
                )
            )
        )
    return timings


def describe(values: list[float]) -> str:
    ordered = sorted(values)
    p90 = ordered[min(len(ordered) - 1, round(0.9 * (len(ordered) - 1)))]
    return (
        f"median {statistics.median(values):7.0f} ms   min {ordered[0]:6.0f}   "
        f"p90 {p90:6.0f}   (n={len(values)})"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=7, help="page loads per notebook")
    parser.add_argument("--clicks", type=int, default=19, help="clicks per worked example load")
    args = parser.parse_args()

    from playwright.sync_api import sync_playwright

    folder = Path(tempfile.mkdtemp(prefix="tutor-bench-"))
    shutil.copy(ROOT / "notebooks" / WORKED, folder)
    shutil.copy(ROOT / "benchmarks" / REFERENCE, folder)
    loads: dict[str, list[float]] = {WORKED: [], REFERENCE: []}
    clicks: dict[str, list[float]] = {WORKED: [], REFERENCE: []}
    # Closed pages' kernels are reclaimed sooner than the app's default, so they do not
    # load the machine (not too soon: see the note on culling in tutor/app/settings.py).
    env = {"TUTOR_CULL_IDLE_TIMEOUT": "30", "TUTOR_CULL_INTERVAL": "5"}
    started = time.monotonic()
    with AppServer(notebooks=folder, env=env) as server, sync_playwright() as playwright:
        print(f"app started in {server.started_in:.1f} s on port {server.port}")
        browser = launch_chromium(playwright)
        for notebook in (WORKED, REFERENCE):  # warm-up: first imports, browser caches
            _, context, _ = measure_load(browser, server.render_url(notebook), notebook)
            context.close()
        for run in range(args.runs):
            order = (WORKED, REFERENCE) if run % 2 == 0 else (REFERENCE, WORKED)
            for notebook in order:
                elapsed, context, page = measure_load(
                    browser, server.render_url(notebook), notebook
                )
                loads[notebook].append(elapsed)
                count = min(args.clicks, 19) if notebook == WORKED else 5
                clicks[notebook] += measure_clicks(page, notebook, count)
                context.close()
        browser.close()
    shutil.rmtree(folder, ignore_errors=True)

    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"{args.runs} page loads per notebook, interleaved; {time.monotonic() - started:.0f} s")
    print()
    print("navigation -> interactive")
    print(f"  worked example    {describe(loads[WORKED])}")
    print(f"  single button     {describe(loads[REFERENCE])}")
    ratio = statistics.median(loads[WORKED]) / statistics.median(loads[REFERENCE])
    print(f"  ratio of medians  {ratio:.2f}x   (target <= 1.2x)")
    print()
    print("click -> feedback")
    print(f"  worked example Next   {describe(clicks[WORKED])}")
    print(f"  single button         {describe(clicks[REFERENCE])}")
    feedback = statistics.median(clicks[WORKED])
    print(f"  worked example median {feedback:.0f} ms   (target < 100 ms)")
    return 0


if __name__ == "__main__":
    sigterm_as_exit()
    raise SystemExit(main())
