"""Every record of every fixture market has a form; forms_of is deterministic; the
component's order, tags and sizes are SPEC §5.6.14's."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from forms_markets import markets

from por.forms import form_of, forms_of
from por.merkle.hashing import leaf_hash
from por.merkle.tree import root_hash

ROOT = Path(__file__).resolve().parents[3]
STEP_TAGS = {"extract_claims": 3, "check_requirement": 4, "aggregate": 5,
             "contradictions": 6, "deduce": 7, "map": 8}


def test_there_are_markets() -> None:
    assert len(markets()) >= 40


@pytest.mark.parametrize("index", range(len(markets())))
def test_every_record_has_a_form_in_component_order(index: int) -> None:
    market = markets()[index]
    forms = forms_of(market.prompt_spec, market.steps, market.verdict)
    r, s = len(market.prompt_spec["data_requirements"]), len(market.steps)
    assert forms.size == r + s + 2
    tags = [f.tag for f in forms.forms]
    assert tags == [1] + [2] * r + [STEP_TAGS[x["inputs"]["kind"]] for x in market.steps] + [9]
    for f in forms.forms:
        assert len(f.form) % 32 == 0 and f.form[:32] == f.tag.to_bytes(32, "big")
        assert f.leaf == leaf_hash(f.form)
    assert forms.root == root_hash([f.form for f in forms.forms])
    assert forms.forms[0].form == form_of(market.prompt_spec)
    assert [f.form for f in forms.forms[1:1 + r]] == [
        form_of(market.prompt_spec, k) for k in range(r)]
    assert [f.form for f in forms.forms[1 + r:-1]] == [form_of(x) for x in market.steps]
    assert forms.forms[-1].form == form_of(market.verdict)


def test_models_and_decoded_records_give_the_same_forms() -> None:
    from por.bundle.build import build
    from por.scenarios import load_scenario

    scenario = load_scenario(markets()[7].name)
    built = build(scenario.prompt_spec, scenario.evidence)
    market = markets()[7]
    assert (forms_of(scenario.prompt_spec, built.trace.steps, built.verdict)
            == forms_of(market.prompt_spec, market.steps, market.verdict))


ROOTS = (
    "import json\n"
    "from forms_markets import markets\n"
    "from por.forms import forms_of\n"
    "print(json.dumps([forms_of(m.prompt_spec, m.steps, m.verdict).root.hex()"
    " for m in markets()]))\n"
)


def test_forms_of_is_deterministic_across_runs() -> None:
    here = [forms_of(m.prompt_spec, m.steps, m.verdict).root.hex() for m in markets()]
    assert here == [forms_of(m.prompt_spec, m.steps, m.verdict).root.hex() for m in markets()]
    for seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": seed,
               "PYTHONPATH": os.pathsep.join((str(ROOT), str(Path(__file__).parent)))}
        run = subprocess.run([sys.executable, "-c", ROOTS], capture_output=True, text=True,
                             env=env, check=True)
        assert json.loads(run.stdout) == here


def test_verify_imports_forms_but_not_pydantic(tmp_path: Path) -> None:
    """``por verify`` checks the carried form hashes (SPEC §6.2 step 5) on the fast
    path without pydantic (ADR 0007); ``por.forms`` itself loads without it."""
    from por.bundle.build import build_bundle
    from por.scenarios import load_scenario

    scenario = load_scenario(markets()[0].name)
    path = tmp_path / "bundle.por"
    path.write_bytes(build_bundle(scenario.prompt_spec, scenario.evidence))
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    run = subprocess.run([sys.executable, "-X", "importtime", "-m", "por", "verify", str(path)],
                         check=False, capture_output=True, text=True, env=env)
    assert run.returncode == 0, run.stdout + run.stderr[-2000:]
    modules = {line.rsplit("|", 1)[-1].strip() for line in run.stderr.splitlines()
               if line.startswith("import time:")}
    assert "por.judge" in modules and "por.forms.bundle" in modules
    assert not {m for m in modules if m == "pydantic" or m.startswith("pydantic.")}
    alone = subprocess.run([sys.executable, "-c", "import sys, por.forms, por.forms.bundle; "
                            "print(any(m.startswith('pydantic') for m in sys.modules))"],
                           check=True, capture_output=True, text=True, env=env)
    assert alone.stdout.strip() == "False"
