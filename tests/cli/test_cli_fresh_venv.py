"""Issue 26 "Done when": README's two commands in a clean virtual environment.

A copy of the checkout (what a fresh clone holds: no virtual environment, no
``node_modules``, no build output) in a temporary directory; README's first
command run there by ``bash`` exactly as README spells it (``python3 -m venv
.venv && . .venv/bin/activate && pip install . && por demo``); its second
command exactly, with one or two small test files appended to ``python -m
pytest -q`` (the whole suite is CI's job).  Both once with the PATH the tests
run with (node on it, if installed) and once with a PATH without node and npm:
``por demo`` and the tests that need node or ``npm ci`` (they must skip, naming
the command) again.  pip reads only a local wheel directory (``PIP_NO_INDEX``,
``PIP_FIND_LINKS``): no network.

The set-up gate ``wheelhouse`` (tests/setup_gate.py): without
``POR_WHEELHOUSE`` naming a directory of wheels for ``.[test]`` and hatchling,
the test skips with the command that builds it; ``.ci/run`` builds it and
requires the gate.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from setup_gate import needs

ROOT = Path(__file__).resolve().parents[2]
WHEELHOUSE = os.environ.get("POR_WHEELHOUSE", "")
_MISSING = (None if WHEELHOUSE and any(Path(WHEELHOUSE).glob("hatchling-*.whl"))
            else "POR_WHEELHOUSE names no directory holding the wheels of '.[test]' and "
                 "hatchling")
pytestmark = needs("wheelhouse", _MISSING)

#: A fresh clone has none of these (.gitignore, and npm's and the venvs' output).
_NOT_IN_A_CLONE = {".git", ".venv", "venv", ".ci-venv", ".ci-wheels", "node_modules",
                   "__pycache__", ".hypothesis", ".mypy_cache", ".ruff_cache",
                   ".pytest_cache", "por-demo", "dist", "fuzz/crashes", "build"}
#: What README's second command runs here: the tests the issue saw fail with node on
#: PATH (they need `npm ci`) and a small unit file, not the whole suite.
SLICE = ("tests/chain/test_contract_build.py", "tests/xdecoder/test_codec_xdecoder_npm.py",
         "tests/unit/test_gate.py")
MARKETS = sorted(p.name for p in (ROOT / "fixtures" / "markets").iterdir() if p.is_dir())


def readme_commands() -> tuple[str, str]:
    """README's two commands: the non-comment lines of its first ``sh`` block."""
    block = re.search(r"```sh\n(.*?)```", (ROOT / "README.md").read_text(), re.DOTALL)
    assert block is not None
    lines = [line for line in block.group(1).splitlines()
             if line.strip() and not line.startswith("#")]
    assert len(lines) == 2, lines
    return lines[0], lines[1]


def _clone(target: Path) -> None:
    def ignored(directory: str, names: list[str]) -> set[str]:
        where = Path(directory).relative_to(ROOT)
        return {name for name in names
                if name in _NOT_IN_A_CLONE - {"build"} or (where / name).as_posix()
                in _NOT_IN_A_CLONE or (where == Path() and name == "build")}

    shutil.copytree(ROOT, target, ignore=ignored, symlinks=True)


def _path_without_node(path: str) -> str:
    return os.pathsep.join(p for p in path.split(os.pathsep)
                           if p and not os.path.exists(os.path.join(p, "node"))
                           and not os.path.exists(os.path.join(p, "npm")))


def _shell(clone: Path, command: str, path: str) -> str:
    """``command`` in bash in ``clone``; pip offline on the wheel directory."""
    env = {"PATH": path, "HOME": str(clone.parent / "home"), "LANG": "C.UTF-8",
           "PIP_NO_INDEX": "1", "PIP_FIND_LINKS": WHEELHOUSE, "PIP_NO_INPUT": "1",
           "PIP_DISABLE_PIP_VERSION_CHECK": "1", "PIP_CONFIG_FILE": os.devnull}
    result = subprocess.run(["/bin/bash", "-c", command], cwd=clone, env=env,
                            capture_output=True, text=True, timeout=900, check=False)
    shown = result.stdout + result.stderr
    assert result.returncode == 0, (command, shown[-4000:])
    assert "Traceback" not in shown, shown[-4000:]
    return shown


def _demo_ran(shown: str) -> None:
    count = len(MARKETS)
    assert f"{count} bundles in por-demo/: {count} verified, {count} matched their " \
           "expected verdict." in shown, shown[-2000:]


def _tests_ran(shown: str, *, node: bool) -> None:
    assert re.search(r"\d+ passed", shown) and " failed" not in shown, shown[-3000:]
    # The tests that need `npm ci` skip and name it, with or without node.
    assert "enable with `cd contracts && npm ci`" in shown or not node, shown[-3000:]
    if not node:
        assert "enable with `" in shown, shown[-3000:]


def test_readme_commands_in_a_fresh_venv(tmp_path: Path) -> None:
    first, second = readme_commands()
    assert first.endswith(" && por demo") and second.endswith(" && python -m pytest -q")
    clone = tmp_path / "por"
    _clone(clone)
    # The clone is as fresh as a new user's: no venv and no npm packages (git-ignored), so
    # the README's commands run here with nothing set up beforehand.
    assert not (clone / ".venv").exists() and not (clone / "contracts" / "node_modules").exists()
    # python3 is the interpreter the tests run with: the wheels are built for it.
    with_node = os.pathsep.join([str(Path(sys.executable).parent), os.environ["PATH"]])
    without_node = _path_without_node(with_node)
    assert shutil.which("node", path=without_node) is None
    assert shutil.which("npm", path=without_node) is None
    tests = " ".join(SLICE)

    # README, exactly: command 1, then command 2 with the slice appended.
    _demo_ran(_shell(clone, first, with_node))
    _tests_ran(_shell(clone, f"{second} {tests}", with_node),
               node=shutil.which("node", path=with_node) is not None)
    assert (clone / ".venv" / "bin" / "por").exists()

    # Again without node and npm on PATH, in the same fresh venv.
    shutil.rmtree(clone / "por-demo")  # por demo never overwrites its output
    _demo_ran(_shell(clone, ". .venv/bin/activate && por demo", without_node))
    _tests_ran(_shell(clone, f". .venv/bin/activate && python -m pytest -q {tests}",
                      without_node), node=False)
