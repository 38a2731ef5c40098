"""SPEC §12.1.2 run in Rust (tests/xregex/rust): Rust's `regex`, as Debian packages it
(librust-regex-dev), built offline from Debian's crate registry, compiles every
pattern of fixtures/vectors/regex.json that is in the subset (and every admitted one
of 600 random patterns) with the same group count, and gives the committed captures
and match groups.  The measure itself is checked in Go and JavaScript; this is the
engine half.  Any disagreement is printed, one line each, and fails."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from setup_gate import needs
from vector_generators import VECTORS, load_generator
from xregex_patterns import closing_counts, write_random_vectors

SOURCE = Path(__file__).resolve().parent / "rust"
REGISTRY = Path("/usr/share/cargo/registry")
CARGO = "/usr/bin/cargo" if Path("/usr/bin/cargo").exists() else shutil.which("cargo")
MISSING = ("cargo is not installed" if CARGO is None else
           None if any(REGISTRY.glob("regex-1.*")) else f"no regex crate in {REGISTRY}")
pytestmark = needs("rust", MISSING)
CONFIG = f"""[source.crates-io]
replace-with = "debian"
[source.debian]
directory = "{REGISTRY}"
[net]
offline = true
"""


@pytest.fixture(scope="module")
def checker(tmp_path_factory: pytest.TempPathFactory) -> Path:
    work = tmp_path_factory.mktemp("xregex-rust")
    shutil.copytree(SOURCE, work / "src-tree")
    project = work / "src-tree"
    (project / ".cargo").mkdir()
    (project / ".cargo" / "config.toml").write_text(CONFIG, encoding="utf-8")
    env = dict(os.environ, CARGO_HOME=str(work / "cargo-home"))
    rustc = Path(CARGO or "cargo").with_name("rustc")
    if rustc.exists():
        env["RUSTC"] = str(rustc)
    built = subprocess.run([CARGO or "cargo", "build", "--release", "--offline", "--quiet"],
                           cwd=project, env=env, capture_output=True, text=True, timeout=900,
                           check=False)
    assert built.returncode == 0, built.stderr
    return project / "target" / "release" / "xregex"


def _hex(text: str) -> str:
    return text.encode("utf-8").hex()


def _groups(groups: list[str | None] | None) -> str:
    if groups is None:
        return "-"
    return ",".join("~" if g is None else "=" + _hex(g) for g in groups)


def lines(data: dict[str, Any]) -> str:
    """The vectors as the Rust checker reads them: P (groups), C (capture), M (match)."""
    out = [f"P {_hex(v['pattern'])} {v['groups']}" for v in data["patterns"]
           if v["groups"] is not None and v["repeat_sum"] <= 64]  # engines cap counts
    gen_text = load_generator("gen_regex").text_from_spec
    for v in data.get("captures", []):
        text = v["text"] if v["text"] is not None else gen_text(v["text_spec"])
        capture = None if v["capture"] is None else [v["capture"]]
        out.append(f"C {_hex(v['pattern'])} {_hex(text)} {_groups(capture)}")
    out += [f"M {_hex(v['pattern'])} {_hex(v['text'])} {_groups(v['groups'])}"
            for v in data.get("matches", [])]
    return "\n".join(out) + "\n"


def run(binary: Path, data: dict[str, Any]) -> tuple[int, int, str]:
    result = subprocess.run([str(binary)], input=lines(data), capture_output=True, text=True,
                            timeout=300, check=False)
    passed, failed = closing_counts(result.stdout)
    assert result.returncode == (1 if failed else 0), result.stderr
    return passed, failed, result.stdout


def _vectors() -> dict[str, Any]:
    return dict(json.loads((VECTORS / "regex.json").read_text(encoding="utf-8")))


def test_rust_gives_every_vector(checker: Path) -> None:
    passed, failed, out = run(checker, _vectors())
    assert failed == 0 and passed > 0, out


def test_rust_agrees_on_random_patterns(checker: Path, tmp_path: Path) -> None:
    path = write_random_vectors(tmp_path / "random.json", matches=2000)
    passed, failed, out = run(checker, json.loads(path.read_text(encoding="utf-8")))
    assert failed == 0 and passed > 0, out


def test_rust_reports_each_wrong_vector(checker: Path) -> None:
    """Canary: a wrong group count and a wrong match group are two disagreement lines."""
    data = _vectors()
    data["patterns"][0]["groups"] += 1
    data["matches"][0]["groups"] = ["wrong"]
    _, failed, out = run(checker, data)
    assert failed == 2 and out.count("DISAGREE ") == 2, out
