"""How the core's three tools present their results: b_eff, mpiBench, MPI start-up time.

The tools (docs/beff.md, docs/mpibench.md, docs/startup.md) write the same
JSON Lines stream as the IMB suites, and their runs are stored like any
other; but IMB's tables do not fit them. Each module here turns a tool's
records (as stored, or as read from its -json file) into the tables that
tool's own community publishes:

- beff.py: HLRS's published b_eff table and closing line, and the PNG of
  bandwidth against message length per pattern;
- mpibench.py: mpiBench's output lines (avg, min, max over processes and the
  communicator label);
- startup.py: RIKEN's start-up time table (TIME(MIN) / TIME(MAX) over ranks,
  one row per launch, the median over launches) and the osu_init /
  osu_hello lines.

Renderers return text and never write; the commands decide where it goes.
"""

from __future__ import annotations

from types import ModuleType

from mpimark.presentation import osu_text
from mpimark.presentation.tools import beff, mpibench, startup

# The `suite` of a tool's run record -> its module. The store's suite column
# holds the core's tool word (beff, mpibench, startup), also accepted, and for
# the original tools' imported output `imported:<format>`: shown as the tool's own text too; and OSU's,
# imported or run by the core's osu suite, in OSU's layout.
MODULES: dict[str, ModuleType] = {"b_eff": beff, "beff": beff, "mpibench": mpibench, "startup": startup,
                                  "imported:beff": beff, "imported:mpibench": mpibench,
                                  **{suite: osu_text for suite in osu_text.SUITES}}


def run_record(records: list[dict]) -> dict | None:
    return next((r for r in records if r["type"] == "run"), None)


def module_for(records: list[dict], suite: str | None = None) -> ModuleType | None:
    """The presentation module of a tool run (by its run record, else by suite), or None for IMB suites."""
    run = run_record(records)
    name = run["suite"] if run else suite
    return MODULES.get(name or "")


def is_tool_run(records: list[dict], suite: str | None = None) -> bool:
    return module_for(records, suite) is not None


def text(records: list[dict], suite: str | None = None) -> str:
    """The tool's own text for one run's records ("" for an IMB suite)."""
    module = module_for(records, suite)
    return module.text(records) if module else ""
