"""The app's kernels forked from a warm process (tutor/app/forked_kernels.py): a forked
kernel is the kernel a normal start makes (environment, folder, arguments), runs code,
is interrupted, killed, culled and reaped, deals differently from its siblings; when the
fork server is gone, kernels start the normal way. Real kernels, no timings."""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psutil
import pytest
from event_loops import run_in_own_thread as run
from jupyter_client.manager import AsyncKernelManager
from jupyter_client.provisioning import KernelProvisionerFactory

from tutor import resources
from tutor.app import forked_kernels
from tutor.app.forked_kernels import PROVISIONER_NAME, ForkServer, kernel_arguments
from tutor.teaching.progress_events import ResetEvent
from tutor.teaching.progress_stores import FileStore

pytestmark = pytest.mark.skipif(not hasattr(os, "pidfd_open"), reason="fork server: Linux only")


@pytest.fixture(scope="module")
def fork_server() -> Iterator[ForkServer]:
    """A fork server of the tests' own, the app's kernel spec and the fork provisioner."""
    server = ForkServer()
    saved = forked_kernels.FORK_SERVER
    forked_kernels.FORK_SERVER = server
    factory = KernelProvisionerFactory.instance()
    default = factory.default_provisioner_name
    factory.default_provisioner_name = PROVISIONER_NAME
    jupyter_path = os.environ.get("JUPYTER_PATH")
    os.environ["JUPYTER_PATH"] = str(resources.jupyter_data_dir())
    server.start()
    yield server
    server.stop()
    forked_kernels.FORK_SERVER = saved
    factory.default_provisioner_name = default
    if jupyter_path is None:
        del os.environ["JUPYTER_PATH"]
    else:
        os.environ["JUPYTER_PATH"] = jupyter_path


async def start(tmp_path: Path, **env: str) -> AsyncKernelManager:
    manager = AsyncKernelManager(kernel_name="python3", transport="ipc")
    manager.connection_file = str(tmp_path / f"kernel-{os.urandom(4).hex()}.json")
    await manager.start_kernel(env={**os.environ, **env}, cwd=str(tmp_path))
    return manager


async def evaluate(manager: AsyncKernelManager, expression: str) -> Any:
    """The value of ``expression`` in the kernel (its repr, evaluated back here)."""
    import ast

    client = manager.client()
    client.start_channels()
    try:
        await client.wait_for_ready(timeout=60)
        reply = await client.execute_interactive(
            f"__value = {expression}",
            user_expressions={"value": "__value"},
            timeout=60,
            output_hook=lambda message: None,
        )
    finally:
        client.stop_channels()
    content = reply["content"]
    assert "value" in content.get("user_expressions", {}), (expression, content)  # it raised
    shown = content["user_expressions"]["value"]
    assert shown["status"] == "ok", shown
    return ast.literal_eval(shown["data"]["text/plain"])


def parent_of(manager: AsyncKernelManager) -> int:
    assert manager.provisioner is not None
    return psutil.Process(manager.provisioner.pid).ppid()


KERNEL_VIEW = (
    "(dict(__import__('os').environ), __import__('os').getcwd(), list(__import__('sys').path),"
    " __import__('sys').argv[1:], __import__('tutor.teaching.language', fromlist=['x'])"
    ".current_language(), sorted(get_ipython().kernel.comm_manager.targets),"
    " {name: value for name, value in __import__('ipykernel.kernelapp', fromlist=['x'])"
    ".IPKernelApp.instance().trait_values().items()"
    " if isinstance(value, (int, str, bool)) and name not in ('connection_file', 'ip')})"
)


def test_a_forked_kernel_is_the_kernel_a_normal_start_makes(
    fork_server: ForkServer, tmp_path: Path
) -> None:
    async def both() -> tuple[Any, Any]:
        forked = await start(tmp_path, TUTOR_WHO="forked", QUERY_STRING="lang=ja")
        factory = KernelProvisionerFactory.instance()
        factory.default_provisioner_name = "local-provisioner"
        try:
            plain = await start(tmp_path, TUTOR_WHO="forked", QUERY_STRING="lang=ja")
        finally:
            factory.default_provisioner_name = PROVISIONER_NAME
        try:
            assert fork_server.process is not None
            assert parent_of(forked) == fork_server.process.pid
            assert parent_of(plain) == os.getpid()
            return await evaluate(forked, KERNEL_VIEW), await evaluate(plain, KERNEL_VIEW)
        finally:
            await forked.shutdown_kernel(now=True)
            await plain.shutdown_kernel(now=True)

    forked, plain = run(both())
    forked_env, forked_cwd, forked_path, forked_argv, forked_lang, *forked_kernel = forked
    plain_env, plain_cwd, plain_path, plain_argv, plain_lang, *plain_kernel = plain
    # The widgets' comm targets, ipykernel's settings ($JPY_PARENT_PID read at its import).
    forked_app, plain_app = forked_kernel[1], plain_kernel[1]
    differing = {
        name: (value, plain_app.get(name))
        for name, value in forked_app.items()
        if value != plain_app.get(name)
    }
    assert differing == {}
    assert forked_app.keys() == plain_app.keys()
    assert forked_kernel[0] == plain_kernel[0]
    assert "jupyter.widget" in forked_kernel[0]
    assert forked_kernel[1]["parent_handle"] == os.getpid()
    # Only the connection file (and the ipc path made from it) differs.
    assert forked_env == plain_env
    assert forked_env["TUTOR_WHO"] == "forked"
    assert forked_env["JPY_PARENT_PID"] == str(os.getpid())
    assert forked_cwd == plain_cwd == str(tmp_path)
    assert forked_path == plain_path
    assert forked_argv[0] == plain_argv[0] == "-f"
    assert forked_lang == plain_lang == "ja"


def test_two_forked_kernels_deal_differently(fork_server: ForkServer, tmp_path: Path) -> None:
    deal = (
        "(__import__('random').random(), __import__('random').Random().random(),"
        " repr(__import__('tutor.rules.round', fromlist=['x']).Round(players=4, cards=5, dealer=0)"
        ".hands))"
    )

    async def two() -> list[Any]:
        kernels = [await start(tmp_path), await start(tmp_path)]
        try:
            return [await evaluate(kernel, deal) for kernel in kernels]
        finally:
            for kernel in kernels:
                await kernel.shutdown_kernel(now=True)

    first, second = run(two())
    assert first[0] != second[0]  # the module's random, reseeded in each child
    assert first[1] != second[1]  # a new Random(), seeded from the system
    assert first[2] != second[2]  # a round dealt as the tutor deals it


def test_a_forked_kernel_is_interrupted_then_killed_and_reaped(
    fork_server: ForkServer, tmp_path: Path
) -> None:
    async def story() -> tuple[str, int, bool]:
        kernel = await start(tmp_path)
        client = kernel.client()
        client.start_channels()
        try:
            await client.wait_for_ready(timeout=60)
            asleep = client.execute("import time; time.sleep(60)")
            while True:  # the cell runs: now interrupt it
                message = await client.get_iopub_msg(timeout=30)
                if message["content"].get("execution_state") == "busy":
                    break
            await asyncio.sleep(0.5)
            await kernel.interrupt_kernel()
            while True:
                reply = await client.get_shell_msg(timeout=30)
                if reply["parent_header"].get("msg_id") == asleep:
                    break
            interrupted = reply["content"].get("ename", reply["content"]["status"])
            alive_after_interrupt = await kernel.is_alive()
            assert kernel.provisioner is not None
            pid = kernel.provisioner.pid
        finally:
            client.stop_channels()
        await kernel.shutdown_kernel(now=True)  # kills it
        return interrupted, pid, alive_after_interrupt

    interrupted, pid, alive_after_interrupt = run(story())
    assert interrupted == "KeyboardInterrupt"
    assert alive_after_interrupt
    # Gone, not a zombie: the fork server reaped it.
    for _ in range(50):
        if not psutil.pid_exists(pid):
            break
        run(asyncio.sleep(0.1))
    assert not psutil.pid_exists(pid)


def test_a_forked_kernel_asked_to_end_ends_by_itself_keeping_what_it_wrote(
    fork_server: ForkServer, tmp_path: Path
) -> None:
    """A page's kernel asked to shut down (its page closed) exits by itself, with code 0,
    not killed after the kernel manager's wait; its exit skips the exit functions, and the
    progress written just before (a learner's file) is kept whole."""
    progress = tmp_path / "progress.jsonl"

    async def story() -> tuple[int | None, int]:
        kernel = await start(tmp_path)
        stores = "__import__('tutor.teaching.progress_stores', fromlist=['FileStore'])"
        events = "__import__('tutor.teaching.progress_events', fromlist=['ResetEvent'])"
        wrote = await evaluate(
            kernel,
            f"len([{stores}.FileStore({str(progress)!r}).append({events}.ResetEvent())"
            " for _ in range(3)])",
        )
        assert kernel.provisioner is not None
        process = kernel.provisioner.process
        assert isinstance(process, forked_kernels.ForkedKernelProcess)
        await kernel.shutdown_kernel()  # as a page-close request asks: not now=True
        return process.returncode, wrote

    code, wrote = run(story())
    assert code == 0  # ended by itself (SIGTERM or SIGKILL would make it negative)
    assert wrote == 3
    events = FileStore(progress).load()
    assert len(events) == 3 and all(isinstance(event, ResetEvent) for event in events)


def test_a_busy_kernel_is_kept_and_an_idle_one_culled(
    fork_server: ForkServer, tmp_path: Path
) -> None:
    """The app's kernel manager (its own watch over the kernels' messages, which the
    culler reads) with forked kernels and the app's culling rules, one second apart."""
    from tutor.app.kernel_access import TutorKernelManager

    async def culled() -> tuple[int, bool, str, bool, list[str]]:
        manager = TutorKernelManager(
            root_dir=str(tmp_path),
            connection_dir=str(tmp_path),
            cull_idle_timeout=1,
            cull_interval=1,
            cull_connected=False,
            cull_busy=False,
        )
        kernel_id = await manager.start_kernel(kernel_name="python3")
        kernel = manager.get_kernel(kernel_id)
        assert kernel.provisioner is not None
        pid = kernel.provisioner.pid
        forked = isinstance(kernel.provisioner, forked_kernels.ForkProvisioner)
        manager.initialize_culler()
        client = kernel.client()
        client.start_channels()
        await client.wait_for_ready(timeout=60)
        client.execute("import time; time.sleep(4)")
        await asyncio.sleep(3)  # busy for longer than the idle timeout, and not culled
        state_while_busy = kernel.execution_state
        kept_while_busy = kernel_id in manager
        client.stop_channels()
        for _ in range(200):
            if kernel_id not in manager:
                break
            await asyncio.sleep(0.1)
        left = manager.list_kernel_ids()
        await manager.shutdown_all()
        return pid, forked, state_while_busy, kept_while_busy, left

    pid, forked, state_while_busy, kept_while_busy, left = run(culled())
    assert forked
    assert state_while_busy == "busy"
    assert kept_while_busy
    assert left == []  # culled once idle
    for _ in range(50):
        if not psutil.pid_exists(pid):
            break
        run(asyncio.sleep(0.1))
    assert not psutil.pid_exists(pid)  # gone and reaped


def test_without_the_fork_server_kernels_start_the_normal_way(
    fork_server: ForkServer, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    gone = ForkServer()
    forked_kernels.FORK_SERVER = gone
    forked_kernels.ForkProvisioner.fallback_told = False
    try:
        gone.start()
        assert gone.process is not None
        gone.process.kill()
        gone.process.wait()

        async def plain() -> tuple[int, Any]:
            kernel = await start(tmp_path)
            try:
                return parent_of(kernel), await evaluate(kernel, "6 * 7")
            finally:
                await kernel.shutdown_kernel(now=True)

        with caplog.at_level(logging.WARNING):
            parent, answer = run(plain())
            run(plain())
    finally:
        forked_kernels.FORK_SERVER = fork_server
        gone.stop()
    assert parent == os.getpid()
    assert answer == 42
    told = [r.getMessage() for r in caplog.records if "normal way" in r.getMessage()]
    assert len(told) == 1, told  # one line, not one per kernel
    assert "fork server ended" in told[0]


def test_only_the_app_kernel_is_forked() -> None:
    import sys

    assert kernel_arguments([sys.executable, "-m", "tutor.app.kernel", "-f", "k.json"]) == [
        "-f",
        "k.json",
    ]
    assert kernel_arguments([sys.executable, "-m", "ipykernel_launcher", "-f", "k.json"]) is None
    assert kernel_arguments(["/other/python", "-m", "tutor.app.kernel", "-f", "k.json"]) is None


def test_a_kernel_keeps_no_history_and_its_collector_skips_what_it_inherited(
    fork_server: ForkServer, tmp_path: Path
) -> None:
    async def view() -> Any:
        kernel = await start(tmp_path)
        try:
            return await evaluate(
                kernel,
                "(get_ipython().history_manager.enabled,"
                " get_ipython().history_manager.save_thread is None,"
                " __import__('gc').get_freeze_count())",
            )
        finally:
            await kernel.shutdown_kernel(now=True)

    history, no_saving_thread, frozen = run(view())
    assert history is False and no_saving_thread
    assert frozen > 50_000  # the fork server's imports: ipykernel, IPython, widgets, tutor
