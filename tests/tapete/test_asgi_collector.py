"""The cycle collector of a process serving the site (``tapete/asgi.py``): what was loaded at start-up is frozen out of
it, and its youngest generation is collected after 10,000 new objects, not Python's 700 (one process's knee from 94
to 253–316 moves/s: ``bench/RESULTS.md``, 2026-12-06, 17:01–17:37). Checked in a fresh interpreter, as a server
starts, not in the test process, which imported much else first."""

import json
import subprocess
import sys

from tests.servers import ROOT, child_env

PROBE = "import gc, json, tapete.asgi; print(json.dumps([gc.get_threshold(), gc.get_freeze_count()]))"


def test_a_serving_process_freezes_its_start_up_objects_and_collects_its_young_generation_less_often():
    result = subprocess.run(
        [sys.executable, "-c", PROBE], cwd=ROOT, env=child_env({}), capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr
    threshold, frozen = json.loads(result.stdout.strip().splitlines()[-1])
    assert threshold == [10_000, 10, 10]
    assert frozen > 10_000  # Django, the apps and the games' modules
