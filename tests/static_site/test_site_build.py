"""The static site's parts that run without a browser: the browser's wheels and their lock,
the build's refusals, and the start-up that keeps tracebacks off a learner's page. (The
built site itself, in Chromium: tests/browser/test_static_site.py.)"""

from __future__ import annotations

import hashlib
import json
import re
import tomllib
import zipfile
from pathlib import Path

import pytest

import tutor
from tutor.cli import main
from tutor.resources import notebooks_dir
from tutor.site import build, build_inputs, build_pages, build_wheels, kernel, precompile
from tutor.site.build_inputs import SiteBuildError
from tutor.site.build_wheels import pyodide_lock, tutor_wheel, write_wheel
from tutor.teaching.text import text

BASE_LOCK = {"info": {"arch": "wasm32", "platform": "emscripten_3_1_58", "version": "0.27.6",
                      "python": "3.12.7"}, "packages": {}}  # fmt: skip


def _lock_of(tmp_path: Path, wheels: dict[str, list[str]]) -> dict:
    made = [
        write_wheel(tmp_path, name, "1.0", {f"{name.replace('-', '_')}/__init__.py": b""}, reqs)
        for name, reqs in wheels.items()
    ]
    made.append(write_wheel(tmp_path, *build_wheels.NOT_SHIPPED_WHEEL, {}))
    return pyodide_lock(BASE_LOCK, made)


def test_a_wheel_is_made_byte_for_byte_the_same_each_time(tmp_path: Path) -> None:
    files = {"pkg/__init__.py": b"x = 1\n", "pkg/data.txt": "日本語".encode()}
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    first = write_wheel(tmp_path / "a", "pkg", "1.0", files)
    second = write_wheel(tmp_path / "b", "pkg", "1.0", files)
    assert first.read_bytes() == second.read_bytes()
    with zipfile.ZipFile(first) as archive:
        assert archive.read("pkg/data.txt").decode() == "日本語"
        assert "pkg-1.0.dist-info/RECORD" in archive.namelist()


def test_the_lock_names_each_wheel_with_its_hash_and_its_dependencies_for_pyodide(
    tmp_path: Path,
) -> None:
    lock = _lock_of(
        tmp_path,
        {
            "app-part": ["helper>=1", "windows-only; sys_platform == 'win32'", "voila"],
            "helper": [],
        },
    )
    packages = lock["packages"]
    assert packages["app-part"]["depends"] == ["helper"]  # voila: the server's; win32: not here
    assert packages["app-part"]["imports"] == ["app_part"]
    wheel = tmp_path / packages["helper"]["file_name"]
    assert packages["helper"]["sha256"] == hashlib.sha256(wheel.read_bytes()).hexdigest()
    # ssl, sqlite3 and jedi: one empty wheel, so the kernel finds them preloaded
    assert {packages[name]["file_name"] for name in build_wheels.NOT_SHIPPED} == {
        "not_shipped-0-py3-none-any.whl"
    }
    assert all(packages[name]["imports"] == [] for name in build_wheels.NOT_SHIPPED)


def test_the_lock_refuses_a_dependency_the_site_has_no_wheel_for(tmp_path: Path) -> None:
    with pytest.raises(SiteBuildError, match=r"app-part needs numpy>=2"):
        _lock_of(tmp_path, {"app-part": ["numpy>=2"]})


def test_the_browser_gets_the_lessons_and_notebooks_but_not_the_server_s_parts(
    tmp_path: Path,
) -> None:
    course = sorted(notebooks_dir().glob("*.ipynb"))
    with zipfile.ZipFile(tutor_wheel(tmp_path, course)) as archive:
        names = set(archive.namelist())
        index = json.loads(archive.read("tutor/data/notebooks/index.ipynb"))
    assert {f"tutor/data/notebooks/{n.name}" for n in course} <= names
    assert any(n.startswith("tutor/data/lessons/06_") and n.endswith(".toml") for n in names)
    assert {"tutor/site/kernel.py", "tutor/site/startup.py", "tutor/rules/trick.py"} <= names
    assert not [
        n
        for n in names
        if n.startswith(("tutor/app/", "tutor/hub/", "tutor/site/build", "tutor/site/fetch"))
    ]
    assert all(cell.get("outputs", []) == [] for cell in index["cells"])


def test_the_browsers_tutor_requires_what_the_source_trees_pyproject_names(
    tmp_path: Path,
) -> None:
    """An editable install's metadata is as old as its install: the wheel takes the
    dependencies of the pyproject.toml beside the package (fsrs, for spaced review)."""
    pyproject = tomllib.loads((Path(tutor.__file__).parents[1] / "pyproject.toml").read_text())
    with zipfile.ZipFile(tutor_wheel(tmp_path, [])) as archive:
        meta = next(n for n in archive.namelist() if n.endswith(".dist-info/METADATA"))
        requires = [
            line.removeprefix("Requires-Dist: ")
            for line in archive.read(meta).decode().splitlines()
            if line.startswith("Requires-Dist: ")
        ]
    assert requires == pyproject["project"]["dependencies"]
    assert any(line.startswith("fsrs") for line in requires)


def test_build_site_refuses_a_folder_that_holds_other_files(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "notes.txt").write_text("mine")
    assert main(["build-site", str(tmp_path)]) == 2
    assert f"{tmp_path} is a folder with other files in it" in capsys.readouterr().err
    assert (tmp_path / "notes.txt").read_text() == "mine"


def test_build_site_without_the_fetched_runtime_says_how_to_fetch_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(build_inputs.RUNTIME_VARIABLE, str(tmp_path / "nothing-here"))
    assert main(["build-site", str(tmp_path / "site")]) == 2
    error = capsys.readouterr().err
    assert "no Pyodide 0.27.6 there" in error and "scripts/setup_site.sh" in error
    assert not (tmp_path / "site").exists()


def test_a_wheel_whose_hash_is_not_pinned_is_refused(tmp_path: Path) -> None:
    fetched = sorted((build_inputs.runtime_dir() / "wheels").glob("comm-*.whl"))
    assert fetched, "run scripts/setup_site.sh"
    (tmp_path / fetched[0].name).write_bytes(fetched[0].read_bytes() + b"\0")
    with pytest.raises(SiteBuildError, match=rf"{fetched[0].name} has not the hash"):
        build_inputs.browser_wheels(tmp_path)


class _Shell:
    """The one hook of IPython's shell the start-up replaces (what kernels override)."""

    def __init__(self) -> None:
        self.shown: list[tuple[object, object, list[str]]] = []

    def _showtraceback(self, etype: object, evalue: object, stb: list[str]) -> None:
        self.shown.append((etype, evalue, stb))


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_failing_cell_shows_the_short_message_and_the_traceback_goes_to_the_console(
    lang: str, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
) -> None:
    from IPython.core.interactiveshell import InteractiveShell

    monkeypatch.setenv("QUERY_STRING", f"lang={lang}")
    shell = InteractiveShell()
    sent = _Shell()
    shell._showtraceback = sent._showtraceback
    kernel.hide_tracebacks(shell)
    shell.run_cell("def helper():\n    raise RuntimeError('secret-detail-91c2')\nhelper()")
    message = text("site-notice.error", lang)
    assert sent.shown == [("TutorError", message, [message])]
    console = capfd.readouterr()
    assert "secret-detail-91c2" in console.err and "helper" in console.err
    assert "secret-detail-91c2" not in console.out


def test_the_pages_stylesheets_are_joined_in_order_from_where_the_template_finds_them(
    tmp_path: Path,
) -> None:
    site_template = tmp_path / "site-templates" / "tutor-site"
    own, base = tmp_path / "tutor", tmp_path / "lab"
    for folder, names in [(site_template, build_pages.PAGE_STYLESHEETS), (own, build_pages.PAGE_STYLESHEETS),
                          (base, build_pages.PAGE_STYLESHEETS[:2])]:  # fmt: skip
        for name in names:
            (folder / name).parent.mkdir(parents=True, exist_ok=True)
            (folder / name).write_text(f"{folder.name}:{name}")
    joined = build_pages.page_stylesheet(
        [str(site_template), str(own), str(base)], tmp_path / "site-templates"
    )
    found = [line for line in joined.splitlines() if ":" in line]
    # the first folder that has a file wins, as with include_css; the site's own empty
    # copies (which keep the files out of each page) are never taken
    assert found == [f"tutor:{name}" for name in build_pages.PAGE_STYLESHEETS]
    (own / build_pages.PAGE_STYLESHEETS[3]).unlink()
    with pytest.raises(SiteBuildError, match=r"static/tutor-page\.css is in none of"):
        build_pages.page_stylesheet([str(site_template), str(own), str(base)], site_template.parent)


def _app_template(folder: Path, blocks: str, scripts: dict[str, str]) -> list[str]:
    """A page template like the app's in ``folder`` (its template paths, as Voici's, are
    returned): ``blocks`` its body, ``scripts`` its static files."""
    (folder / "tutor" / "static").mkdir(parents=True)
    (folder / "tutor" / "index.html.j2").write_text(
        "{%- extends 'lab/index.html.j2' -%}{%- block body_footer -%}" + blocks
        + "<script>watch</script>{%- endblock body_footer -%}"
    )  # fmt: skip
    for name, script in scripts.items():
        (folder / "tutor" / "static" / name).write_text(script)
    for name in build_pages.PAGE_STYLESHEETS:
        (folder / "tutor" / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / "tutor" / name).write_text(f"p::before {{ content: '{name}' }}")
    return [str(folder / "tutor"), str(folder)]


def test_the_pages_link_the_scripts_the_app_s_blocks_name_each_by_an_address_of_its_text(
    tmp_path: Path,
) -> None:
    blocks = (
        "{%- block tutor_setup_scripts -%}{#- the settings first -#}\n"
        "{{ resources.include_js('static/first.js') }}\n"
        "{{ resources.include_js('static/second.js') }}{%- endblock tutor_setup_scripts -%}"
        "{%- block tutor_course_scripts -%}\n"
        "{{ resources.include_js('static/third.js', module=True) }}"
        "{%- endblock tutor_course_scripts -%}"
    )
    scripts = {"first.js": "let a = 1;", "second.js": "let b = 2;", "third.js": "let c = 3;"}
    paths = _app_template(tmp_path / "templates", blocks, scripts)
    shared = build_pages.shared_files(paths, tmp_path / "site-templates")
    folder = build_pages.SHARED_FOLDER
    # each script is one file of the site with the app's text, the page's script beside them
    assert {path: shared.files[path] for path in shared.files if path.endswith(".js")} == {
        build_pages.SITE_PAGE_SCRIPT: (Path(build_pages.__file__).parent / "page.js").read_text(),
        **{f"{folder}/{name}": script for name, script in scripts.items()},
    }
    stylesheet = build_pages.page_stylesheet(paths, tmp_path / "site-templates")
    assert shared.files[build_pages.SHARED_STYLESHEET] == stylesheet
    # each block links its scripts, in its order, by an address that names the file's text
    linked = {
        name: re.findall(r'<script src="\{\{ base_url \}\}([^"?]+)\?v=(\w+)"', block)
        for name, block in shared.blocks.items()
    }
    assert {name: [path for path, _ in links] for name, links in linked.items()} == {
        "tutor_setup_scripts": [f"{folder}/first.js", f"{folder}/second.js"],
        "tutor_course_scripts": [f"{folder}/third.js"],
    }
    assert 'type="module"' in shared.blocks["tutor_course_scripts"]
    assert "let " not in "".join(shared.blocks.values())  # no copy of any script
    versions = {path: version for links in linked.values() for path, version in links}
    assert len(set(versions.values())) == 3
    # a new text, a new address; the others stay as they were, kept by the browser
    (tmp_path / "templates" / "tutor" / "static" / "second.js").write_text("let b = 22;")
    again = build_pages.shared_files(paths, tmp_path / "site-templates")
    changed = {
        path: version
        for block in again.blocks.values()
        for path, version in re.findall(r'\}\}([^"?]+)\?v=(\w+)"', block)
        if versions[path] != version
    }
    assert list(changed) == [f"{folder}/second.js"]


@pytest.mark.parametrize(
    ("blocks", "refusal"),
    [
        ("{%- block tutor_setup_scripts -%}{%- endblock tutor_setup_scripts -%}",
         r"has no blocks .*tutor_course_scripts"),
        ("{%- block tutor_setup_scripts -%}{{ resources.include_js('static/gone.js') }}"
         "{%- endblock -%}{%- block tutor_course_scripts -%}{%- endblock -%}",
         r"static/gone\.js is in none of"),
        ("{%- block tutor_setup_scripts -%}{{ resources.tutor.words }}{%- endblock -%}"
         "{%- block tutor_course_scripts -%}{%- endblock -%}", r"name only scripts"),
        ("{%- block tutor_setup_scripts -%}{{ resources.include_js('static/here.js') }}"
         "{%- endblock -%}{%- block tutor_course_scripts -%}"
         "{{ resources.include_js('static/page.js') }}{%- endblock -%}",
         r"two page scripts would be the site's static/tutor-site/page\.js: static/page\.js"),
    ],
)  # fmt: skip
def test_the_site_refuses_script_blocks_it_cannot_link_saying_which(
    tmp_path: Path, blocks: str, refusal: str
) -> None:
    scripts = {"here.js": "let a = 1;", "page.js": "let b = 2;"}  # not the site's page.js
    paths = _app_template(tmp_path / "templates", blocks, scripts)
    with pytest.raises(SiteBuildError, match=refusal):
        build_pages.shared_files(paths, tmp_path / "site-templates")


def test_files_worth_compressing_get_a_reproducible_gzip_copy_and_nothing_else_does(
    tmp_path: Path,
) -> None:
    import gzip
    import os

    script = b"function f() { return 'the same words again'; }\n" * 200
    (tmp_path / "deep").mkdir()
    (tmp_path / "deep" / "page.js").write_bytes(script)
    (tmp_path / "small.css").write_bytes(b"p { color: red; }")  # too small to be worth it
    (tmp_path / "random.wasm").write_bytes(os.urandom(4096))  # gzip would not shrink it
    (tmp_path / "wheel.whl").write_bytes(script)  # a zip: never recompressed
    assert build.write_gzip_copies(tmp_path) == 1
    copy = tmp_path / "deep" / "page.js.gz"
    assert gzip.decompress(copy.read_bytes()) == script
    assert sorted(p.name for p in tmp_path.rglob("*.gz")) == ["page.js.gz"]
    first = copy.read_bytes()
    copy.unlink()
    build.write_gzip_copies(tmp_path)
    assert copy.read_bytes() == first  # no date or name inside: the same site, the same bytes


def test_bytecode_goes_beside_the_wanted_sources_and_is_loaded_without_checking_them(
    tmp_path: Path,
) -> None:
    import subprocess
    import sys

    files = {"pkg/__init__.py": b"", "pkg/used.py": b"WHO = 'compiled'\n",
             "pkg/unused.py": b"WHO = 'unused'\n"}  # fmt: skip
    wheel = write_wheel(tmp_path, "pkg", "1.0", files)
    assert precompile.add_bytecode(wheel, {"pkg/used.py"}) == 1
    (tmp_path / "again").mkdir()
    again = write_wheel(tmp_path / "again", "pkg", "1.0", files)
    precompile.add_bytecode(again, {"pkg/used.py"})
    assert again.read_bytes() == wheel.read_bytes()  # the same wheel, byte for byte
    with zipfile.ZipFile(wheel) as archive:
        cached = [n for n in archive.namelist() if n.endswith(".pyc")]
        assert cached == [f"pkg/__pycache__/used.{sys.implementation.cache_tag}.pyc"]
        archive.extractall(tmp_path / "installed")
    # The source changes after the unpacking (as its date does in Pyodide): the bytecode
    # is still what Python runs, never checked against it.
    (tmp_path / "installed" / "pkg" / "used.py").write_text("WHO = 'source'\n")
    run = subprocess.run(
        [sys.executable, "-c", "import pkg.used; print(pkg.used.WHO)"],
        cwd=tmp_path / "installed", capture_output=True, text=True, check=True,
    )  # fmt: skip
    assert run.stdout.strip() == "compiled"


def test_an_imported_zip_gets_bytecode_in_place_of_the_wanted_sources(tmp_path: Path) -> None:
    """The standard library's zip (zipimport reads it as it is): ``name.pyc`` where
    ``name.py`` was, found and run without the source, its code naming the source's path."""
    import subprocess
    import sys

    files = {"pkg/__init__.py": b"", "pkg/used.py": b"def where():\n    return 'compiled'\n",
             "pkg/unused.py": b"WHO = 'source'\n"}  # fmt: skip

    def compiled(stdlib: Path) -> Path:
        with zipfile.ZipFile(stdlib, "w") as archive:
            for name, data in files.items():
                archive.writestr(zipfile.ZipInfo(name, date_time=(2025, 1, 1, 0, 0, 0)), data)
        assert precompile.add_bytecode(stdlib, {"pkg/used.py"}, zipimported="/lib/std.zip") == 1
        return stdlib

    stdlib = compiled(tmp_path / "std.zip")
    with zipfile.ZipFile(stdlib) as archive:
        assert archive.namelist() == ["pkg/__init__.py", "pkg/used.pyc", "pkg/unused.py"]
    (tmp_path / "again").mkdir()
    assert compiled(tmp_path / "again" / "std.zip").read_bytes() == stdlib.read_bytes()
    code = (
        "import sys; sys.path.insert(0, sys.argv[1]); import pkg.used, pkg.unused; "
        "print(pkg.used.where(), pkg.used.where.__code__.co_filename, pkg.unused.WHO)"
    )
    run = subprocess.run(
        [sys.executable, "-c", code, str(stdlib)], capture_output=True, text=True, check=True
    )
    # the file name it has in the browser's Python, for a traceback
    assert run.stdout.split() == ["compiled", "/lib/std.zip/pkg/used.py", "source"]


def test_without_node_the_build_says_what_to_install(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(build.shutil, "which", lambda name: None)
    with pytest.raises(SiteBuildError, match="node is missing"):
        build.precompile(tmp_path, tmp_path)


def _archive_of(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str) -> Path:
    """The site-packages archive of a site whose pages load "app-part" (which needs
    "helper"), beside a wheel no page loads."""
    long_name = "helper/" + "deep/" * 20 + "data.txt"  # past a ustar name's 100 bytes
    wheels = [
        write_wheel(tmp_path, "app-part", "1.0", {"app_part/__init__.py": b"A = 1\n"},
                    ["helper"]),
        write_wheel(tmp_path, "helper", "1.0", {"helper/__init__.py": b"", long_name: b"x"}),
        write_wheel(tmp_path, "unrelated", "1.0", {"unrelated/__init__.py": b""}),
        write_wheel(tmp_path, *build_wheels.NOT_SHIPPED_WHEEL, {}),
    ]  # fmt: skip
    monkeypatch.setattr(build_wheels, "PRELOAD", (*build_wheels.NOT_SHIPPED, "app-part"))
    archive = tmp_path / name
    build_wheels.site_packages_archive(tmp_path, pyodide_lock(BASE_LOCK, wheels), archive)
    return archive


def test_the_packages_archive_holds_the_pages_wheels_as_pyodide_would_unpack_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import tarfile

    archive = _archive_of(tmp_path, monkeypatch, "one.tar.gz")
    with tarfile.open(archive) as tar:
        entries = {member.name: member for member in tar.getmembers()}
        read = {name: tar.extractfile(member).read() for name, member in entries.items()}
    prefix = build_wheels.SITE_PACKAGES.lstrip("/") + "/"
    expected = {}
    for wheel in ("app_part-1.0-py3-none-any.whl", "helper-1.0-py3-none-any.whl"):
        with zipfile.ZipFile(tmp_path / wheel) as source:
            expected.update({prefix + n: source.read(n) for n in source.namelist()})
    assert read == expected  # "unrelated" and the empty stand-in: no page loads them
    assert all(m.isreg() and m.mtime == 0 and m.uname == "" for m in entries.values())
    again = _archive_of(tmp_path, monkeypatch, "two.tar.gz")
    assert again.read_bytes() == archive.read_bytes()  # the same site, the same bytes


def test_the_packages_archive_refuses_a_file_that_two_wheels_hold(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    wheels = [
        write_wheel(tmp_path, "app-part", "1.0", {"shared/x.py": b""}, ["helper"]),
        write_wheel(tmp_path, "helper", "1.0", {"shared/x.py": b""}),
        write_wheel(tmp_path, *build_wheels.NOT_SHIPPED_WHEEL, {}),
    ]
    monkeypatch.setattr(build_wheels, "PRELOAD", ("app-part",))
    with pytest.raises(SiteBuildError, match=r"shared/x.py is in both"):
        build_wheels.site_packages_archive(
            tmp_path, pyodide_lock(BASE_LOCK, wheels), tmp_path / "a"
        )


# The site's loader (tutor/site/loader.js) under Node.js, with a stand-in for Pyodide that
# records what it is asked to do.
INSTALL_WITH_NODE = """
const [loaderFile, archiveFile] = process.argv.slice(1);
const loader = require(loaderFile);
const files = {};
const pyodide = {
  FS: { mkdirTree() {}, writeFile(path, data) { files[path] = Buffer.from(data).toString("hex"); } },
  runPython(code) { this.ran = code; },
  loadedPackages: {},
};
loader.installArchive(pyodide, require("fs").readFileSync(archiveFile)).then((count) => {
  console.log(JSON.stringify({ count, files, loaded: pyodide.loadedPackages, ran: pyodide.ran }));
});
"""


@pytest.mark.parametrize("sent_as", ["gzip", "inflated by the browser"])
def test_the_loader_writes_every_file_of_the_archive_and_marks_its_packages_loaded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, sent_as: str
) -> None:
    import gzip
    import shutil
    import subprocess
    import tarfile

    node = shutil.which("node")
    if node is None:
        pytest.fail("node is missing: the site's build needs it (apt-get install nodejs)")
    archive = _archive_of(tmp_path, monkeypatch, "site.tar.gz")
    if sent_as != "gzip":  # a server that sends .gz files with Content-Encoding: gzip
        archive.write_bytes(gzip.decompress(archive.read_bytes()))
    run = subprocess.run(
        [node, "-e", INSTALL_WITH_NODE, str(build_inputs.HERE / "loader.js"), str(archive)],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    done = json.loads(run.stdout)
    with tarfile.open(archive) as tar:
        expected = {"/" + m.name: tar.extractfile(m).read().hex() for m in tar.getmembers()}
    assert any(len(path) > 100 for path in expected)
    assert done["files"] == expected and done["count"] == len(expected)
    # by their lock names, so Pyodide never installs their wheels again for a cell's imports
    assert sorted(done["loaded"]) == ["app-part", "helper"]
    assert "invalidate_caches()" in done["ran"]  # site-packages changed under Python


def test_ipython_s_terminal_comes_only_when_something_of_it_is_used() -> None:
    """The loader's stand-in for IPython.terminal.embed: `import IPython` (as the kernel
    does) without prompt_toolkit; the real module as soon as anything of it is used."""
    import shutil
    import subprocess
    import sys

    node = shutil.which("node")
    if node is None:
        pytest.fail("node is missing: the site's build needs it (apt-get install nodejs)")
    loader = str(build_inputs.HERE / "loader.js")
    stand_in = subprocess.run(
        [node, "-e", "console.log(require(process.argv[1]).LAZY_TERMINAL_EMBED)", loader],
        capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip
    # Python 3.12 (Pyodide's) asks a module in sys.modules for __path__ on `from
    # .terminal.embed import embed`: a stand-in that answered by importing the real one
    # saved nothing. (This Python may be older: the probe is made here.)
    check = """
import sys
print(hasattr(sys.modules["IPython.terminal.embed"], "__path__"), "prompt_toolkit" in sys.modules)
import IPython
print("prompt_toolkit" in sys.modules, callable(IPython.embed))
from IPython.terminal.embed import InteractiveShellEmbed
print("prompt_toolkit" in sys.modules, InteractiveShellEmbed.__module__)
print(type(sys.modules["IPython.terminal.embed"].InteractiveShellEmbed).__name__)
"""
    run = subprocess.run(
        [sys.executable, "-c", stand_in + check], capture_output=True, text=True, check=True
    )
    assert run.stdout.split() == [
        "False", "False", "False", "True", "True", "IPython.terminal.embed", "MetaHasTraits",
    ]  # fmt: skip


def test_the_loader_carries_a_name_of_its_build_that_changes_with_what_python_is_made_of(
    tmp_path: Path,
) -> None:
    """The name keys the browser's memory snapshot (loader.js, SITE_BUILD): the same files
    give the same name, a changed archive or runtime another, so no browser restores the
    heap of another build."""
    import re

    for name in (
        *build_inputs.PYODIDE_RUNTIME,
        "pyodide-lock.json",
        build_wheels.SITE_PACKAGES_ARCHIVE,
    ):
        (tmp_path / name).write_bytes(name.encode())
    first = build_wheels.stamp_loader(tmp_path)
    written = (tmp_path / build_wheels.LOADER).read_text(encoding="utf-8")
    assert re.findall(r'const SITE_BUILD = "(\w+)";', written) == [first]
    assert build_wheels.UNSTAMPED_BUILD not in re.findall(r'SITE_BUILD = "(\w+)"', written)
    assert build_wheels.stamp_loader(tmp_path) == first  # the same site, the same name
    names = {first}
    for changed in (build_wheels.SITE_PACKAGES_ARCHIVE, "pyodide.asm.wasm"):
        (tmp_path / changed).write_bytes(b"another " + changed.encode())
        names.add(build_wheels.stamp_loader(tmp_path))
    assert len(names) == 3


# -- the kernel's worker, started with the page (tutor/site/page.js, loader.js) ---------------

# How JupyterLite's PyodideKernel makes its worker, as its minified chunk says it (0.6.1).
MAKES_WORKER = (
    b"initWorker(e){return crossOriginIsolated?new Worker(new URL(n.p+n.u(620),n.b),"
    b"{type:void 0}):new Worker(new URL(n.p+n.u(352),n.b),{type:void 0})}"
)


def test_the_build_finds_the_kernel_s_worker_script_of_the_installed_extension() -> None:
    import sys

    extension = Path(sys.prefix) / "share/jupyter/labextensions" / build_pages.KERNEL_EXTENSION
    found = build_pages.kernel_worker_script(extension)
    assert found is not None, "the installed kernel makes its worker another way"
    relative = found.removeprefix(f"./extensions/{build_pages.KERNEL_EXTENSION}/")
    script = extension / relative
    assert script.is_file() and b"initRuntime" in script.read_bytes()
    assert (
        build_pages.page_config()["jupyter-config-data"][build_pages.KERNEL_WORKER_SETTING] == found
    )


@pytest.mark.parametrize(
    ("chunks", "expected"),
    [
        ({"592.aa.js": MAKES_WORKER, "352.0f.js": b"", "620.1e.js": b""}, "352.0f.js"),
        # another way of making it, or its script not there: no early start
        ({"592.aa.js": b"new Worker(new URL(n.p+n.u(352),n.b))", "352.0f.js": b""}, None),
        ({"592.aa.js": MAKES_WORKER, "620.1e.js": b""}, None),
        ({"592.aa.js": MAKES_WORKER, "352.0f.js": b"", "352.1e.js": b""}, None),
    ],
)
def test_the_kernel_s_worker_script_is_named_only_when_found_as_expected(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, chunks: dict[str, bytes], expected: str | None
) -> None:
    static = tmp_path / "static"
    static.mkdir()
    for name, content in chunks.items():
        (static / name).write_bytes(content)
    found = build_pages.kernel_worker_script(tmp_path)
    if expected is None:
        assert found is None
        monkeypatch.setattr(build_pages, "kernel_worker_script", lambda extension: found)
        assert (
            build_pages.KERNEL_WORKER_SETTING
            not in build_pages.page_config()["jupyter-config-data"]
        )
    else:
        assert found == f"./extensions/{build_pages.KERNEL_EXTENSION}/static/{expected}"
