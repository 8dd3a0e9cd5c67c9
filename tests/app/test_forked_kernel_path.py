"""Where a forked kernel looks for modules (tutor/app/forked_kernels.py): as a plain
ipykernel does, the notebook's folder comes after the standard library and before the
installed packages (IPython's ``init_path``), so a notebook folder's ``colorsys.py`` does
not shadow the standard library's. Real kernels, no timings."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from event_loops import run_in_own_thread
from jupyter_client.manager import AsyncKernelManager

from .test_forked_kernels import evaluate, fork_server, start  # noqa: F401 (fixture)

pytestmark = pytest.mark.skipif(not hasattr(os, "pidfd_open"), reason="fork server: Linux only")

LOOK = "(list(__import__('sys').path), __import__('colorsys').__file__, __import__('os').getcwd())"


async def _plain_ipykernel(folder: Path) -> Any:
    """What ``python -m ipykernel_launcher`` (Jupyter's own kernel spec) sees in ``folder``."""
    manager = AsyncKernelManager(transport="ipc")
    manager.kernel_cmd = ["python", "-m", "ipykernel_launcher", "-f", "{connection_file}"]
    manager.connection_file = str(folder / f"kernel-{os.urandom(4).hex()}.json")
    env = {k: v for k, v in os.environ.items() if k != "JUPYTER_PATH"}
    await manager.start_kernel(env=env, cwd=str(folder))
    try:
        return await evaluate(manager, LOOK)
    finally:
        await manager.shutdown_kernel(now=True)


@pytest.mark.usefixtures("fork_server")
def test_the_notebook_folder_comes_where_a_plain_ipykernel_puts_it(tmp_path: Path) -> None:
    (tmp_path / "colorsys.py").write_text("raise ImportError('the notebook folder shadowed')\n")

    async def both() -> tuple[Any, Any]:
        forked = await start(tmp_path)
        try:
            return await evaluate(forked, LOOK), await _plain_ipykernel(tmp_path)
        finally:
            await forked.shutdown_kernel(now=True)

    (forked_path, forked_colorsys, cwd), (plain_path, plain_colorsys, _) = run_in_own_thread(both())
    assert cwd == str(tmp_path)
    assert forked_colorsys == plain_colorsys != str(tmp_path / "colorsys.py")
    # The folder ("", the kernel's cwd) after the standard library, before site-packages,
    # exactly where ipykernel's own launcher puts it.
    assert "" in forked_path and str(tmp_path) not in forked_path
    assert forked_path.index("") == plain_path.index("")
    assert forked_path[: forked_path.index("")] == plain_path[: plain_path.index("")]
    first_packages = next(i for i, p in enumerate(forked_path) if "-packages" in p)
    assert forked_path.index("") < first_packages
