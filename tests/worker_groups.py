"""Which tests share a pytest-xdist worker (scripts/test.sh runs the suite on two, with
``--dist loadgroup``).

A worker sets up each session or module fixture it needs once, so the tests that share a
costly one run on the same worker: the built static site, JupyterLab, a hub, the
classroom app, the scratch app, PostgreSQL, any module of servers (tests/browser, hub,
fuzz, whose module fixtures start their own), and any module whose tests share a module
fixture (the notebooks run once per language, the variants' sentences): one group per
value of that fixture's parameter, if it has one. The cells of a notebook
(``--nbval-lax notebooks``) run in order in the one kernel nbval starts for it, so a
notebook is a group too. The rest (the engine's, most of the teaching layer's) is dealt
out test by test.

pytest-xdist 3.8 names a test's group by appending ``@group`` to its id, which its
scheduler reads; from pytest 9.2 on, a test's id is no longer the attribute xdist writes
(pytest-dev/pytest-xdist#1386), so its groups were silently ignored: the tests of one hub
went to both workers, each starting a hub of its own, and each failed on the other's
logins. :func:`pytest_collection_modifyitems` below therefore writes the suffix itself
where xdist's did not take; tests/test_worker_groups.py checks that the groups hold.
"""

from __future__ import annotations

import pytest

_SHARED_FIXTURES = ("site", "room_app", "scratch_app", "login_hub", "postgres")
_SERVER_FOLDERS = ("browser", "hub", "fuzz")


def costly_group(item: pytest.Item) -> str | None:
    """The group of the tests that share ``item``'s costly set-up, if it has one."""
    if item.path.suffix == ".ipynb":  # a cell of nbval's: its notebook's kernel
        return item.path.name
    params = getattr(item, "callspec", None)
    params = params.params if params is not None else {}
    host = params.get("host", params.get("presenter_host"))
    if host in ("site", "lab"):
        return str(host)
    if params.get("class_db") == "postgresql":
        return "postgres"
    names = getattr(item, "fixturenames", ())
    shared = next((name for name in _SHARED_FIXTURES if name in names), None)
    if shared is not None:
        return shared
    module = f"{item.path.parent.name}/{item.path.name}"
    if item.path.parent.name in _SERVER_FOLDERS:
        return module
    shared_values = _module_fixture_values(item, params)
    if shared_values is not None:
        return module + "".join(f"[{value}]" for value in shared_values)
    return None


def _module_fixture_values(item: pytest.Item, params: dict[str, object]) -> list[str] | None:
    """None if ``item`` uses no module-scoped fixture; else the parameter values (by their
    ``id`` where they have one) of those it uses that are parametrized."""
    info = getattr(item, "_fixtureinfo", None)
    if info is None:
        return None
    values = []
    shared = False
    for name in info.names_closure:
        definitions = info.name2fixturedefs.get(name)
        if definitions and definitions[-1].scope in ("module", "class"):
            shared = True
            if name in params:
                values.append(str(getattr(params[name], "id", params[name])))
    return values if shared else None


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark each test with its group (``xdist_group``) before pytest-xdist reads the marks."""
    for item in items:
        group = costly_group(item)
        if group is not None:
            item.add_marker(pytest.mark.xdist_group(group))


@pytest.hookimpl(trylast=True, specname="pytest_collection_modifyitems")
def pytest_name_the_groups(config: pytest.Config, items: list[pytest.Item]) -> None:
    """On a worker of ``--dist loadgroup``: each marked test's id ends with ``@`` and its
    groups as pytest-xdist's own hook writes it, where that hook's writing did not take."""
    if not getattr(config.option, "loadgroup", False):
        return
    for item in items:
        groups = {
            str(mark.args[0] if mark.args else mark.kwargs.get("name", "default"))
            for mark in item.iter_markers("xdist_group")
        }
        nodeid = item.nodeid
        if not groups or nodeid.rfind("@") > nodeid.rfind("]"):  # none, or already named
            continue
        from _pytest.nodeid import NodeId  # pytest 9.2's structured id (see above)

        item._id = NodeId.parse(f"{nodeid}@{'_'.join(sorted(groups))}")  # type: ignore[attr-defined]
