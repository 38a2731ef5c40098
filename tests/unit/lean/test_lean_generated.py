"""The lean records are what the generator writes from the pydantic models (issue 21).

Three pins: the committed ``por/lean/records_gen/`` is byte for byte what
``python -m por.lean.generate`` writes from today's models (change a model,
forget to regenerate, and this fails); the generator follows a model's bounds
and refuses what it cannot restate (a pattern, a field validator, a
``model_validator`` without a hook, ...) rather than leave it out; and, record
by record, every generated record accepts only what its model accepts
(differentially, on every one-change mutant of every example value the
fixture markets and bundles hold, nested records included).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Annotated, Any, Literal, Self

import pytest
from pydantic import BaseModel, Field, ValidationError, field_validator, model_validator
from test_lean_records import _same, mutants

from por.bundle import layout as py_layout
from por.encoding import decode
from por.lean import generate, generate_writers, records_gen, writers_gen
from por.lean.base import Reject, Struct
from por.lean.records_gen import bundle as gen_bundle
from por.lean.records_gen import evidence as gen_evidence
from por.lean.records_gen import prompt as gen_prompt
from por.lean.schema_reader import GenerateError, Lean
from por.scenarios import list_scenarios, load_scenario
from por.schemas.base import Blob, Id, Model, UnixTime

BUNDLES = Path(__file__).resolve().parents[3] / "fixtures" / "bundles" / "valid"
LEAN = [spec for _, rows in generate.DOMAINS for spec in rows]


GENERATED = [records_gen, gen_prompt, gen_evidence, gen_bundle, writers_gen]


def test_every_generated_module_is_pinned() -> None:
    assert set(generate.targets()) == {Path(m.__file__) for m in GENERATED}


@pytest.mark.parametrize("module", GENERATED, ids=lambda m: m.__name__)
def test_generated_module_is_what_the_generator_writes(module: Any) -> None:
    committed = Path(module.__file__).read_text(encoding="utf-8")
    assert generate.targets()[Path(module.__file__)] == committed, \
        "run: python -m por.lean.generate"


def test_check_says_whether_the_modules_are_current(monkeypatch: pytest.MonkeyPatch,
                                                    tmp_path: Path) -> None:
    assert generate.main(["--check"]) == 0
    for name in ("__init__", "prompt", "evidence", "bundle"):
        text = (generate.PACKAGE / f"{name}.py").read_text(encoding="utf-8")
        (tmp_path / f"{name}.py").write_text(text, encoding="utf-8")
    monkeypatch.setattr(generate, "PACKAGE", tmp_path)
    assert generate.main(["--check"]) == 0
    with (tmp_path / "evidence.py").open("a", encoding="utf-8") as out:
        out.write("# edited\n")
    assert generate.main(["--check"]) == 1


@pytest.mark.parametrize("writer", generate_writers.WRITERS, ids=lambda w: w.name)
def test_written_records_have_their_models_fields(writer: Any) -> None:
    lean = getattr(writers_gen, writer.name)
    fields = list(writer.model.model_fields)
    assert list(lean.NAMES) == [f for f in fields if f != "record_schema"]
    assert set(lean.__slots__) == {*fields, *writer.memo}
    if "record_schema" in fields:
        schema = writer.model.model_fields["record_schema"].default
        assert schema == lean.SCHEMA


def test_every_generated_record_has_its_row() -> None:
    generated = {name for name in records_gen.__all__
                 if isinstance(getattr(records_gen, name), type)}
    assert generated == {spec.model.__name__ for spec in LEAN}
    # + NumberFormat, ValueMapEntry, ValueMap, SourceLocator, Term, Precondition
    assert len(generated) == 24


# --- the generator follows the model ------------------------------------------------

class _Bounds(Model):
    small: Annotated[int, Field(ge=2, lt=9)]
    name: Annotated[Id, Field(max_length=7)]  # bounds add up: 1..7
    stamp: UnixTime
    kind: Literal["a", "b"] = "a"  # a default other than None: required
    tags: Annotated[list[Id], Field(min_length=1, max_length=3)]
    body: Annotated[Blob, Field(max_length=5)] | None = None


def _rows(model: type[BaseModel], monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setattr(generate, "DOMAINS", (("toy", (Lean(model),)),))
    return generate.targets()[generate.PACKAGE / "toy.py"]


def _rows_of(spec: Lean, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setattr(generate, "DOMAINS", (("toy", (spec,)),))
    return generate.targets()[generate.PACKAGE / "toy.py"]


def test_bounds_come_from_the_model(monkeypatch: pytest.MonkeyPatch) -> None:
    text = _rows(_Bounds, monkeypatch)
    for row in ('("small", "small", integer(2, 8), False),',
                '("name", "name", text(1, 7), False),',
                '("stamp", "stamp", unix_time, False),',
                '("kind", "kind", literal("a", "b"), False),',
                '("tags", "tags", list_of(identifier, 1, 3), False),',
                '("body", "body", blob(0, 5), True),'):
        assert row in text


class _Pattern(Model):
    code: Annotated[str, Field(pattern="^[a-z]+$")]


class _Unbounded(Model):
    n: int


class _FieldValidator(Model):
    n: Annotated[int, Field(ge=0, le=1)]

    @field_validator("n")
    @classmethod
    def _odd(cls, value: int) -> int:
        return value


class _ModelValidator(Model):
    n: Annotated[int, Field(ge=0, le=1)]

    @model_validator(mode="after")
    def _rule(self) -> Self:
        return self


class _NoneNotDefault(Model):
    n: Annotated[int, Field(ge=0, le=1)] | None


class _Loose(BaseModel):  # not strict
    n: Annotated[int, Field(ge=0, le=1)]


class _Float(Model):
    x: float


@pytest.mark.parametrize("model", [_Pattern, _Unbounded, _FieldValidator, _ModelValidator,
                                   _NoneNotDefault, _Loose, _Float])
def test_what_the_generator_cannot_restate_stops_it(model: type[BaseModel],
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(GenerateError):
        _rows(model, monkeypatch)


def test_a_hook_must_exist(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(GenerateError, match="no_such_hook"):
        _rows_of(Lean(_ModelValidator, invariants="no_such_hook"), monkeypatch)


def test_a_model_validator_needs_its_hook(monkeypatch: pytest.MonkeyPatch) -> None:
    spec = next(s for s in LEAN if s.invariants is not None)
    with pytest.raises(GenerateError, match="model_validators"):
        _rows_of(Lean(spec.model), monkeypatch)


# --- every generated record accepts only what its model accepts ----------------------

def _examples() -> Iterator[tuple[type[BaseModel], Any]]:
    """Every record value of the fixture markets and bundles, with its model,
    nested values included (each model's first few of a list)."""
    def walk(model: type[BaseModel], value: Any) -> Iterator[tuple[type[BaseModel], Any]]:
        yield model, value
        for name, info in model.model_fields.items():
            inner = value.get(info.alias or name)
            nested = _model_of(info.annotation)
            if nested is None or inner is None:
                continue
            for item in inner[:2] if isinstance(inner, list) else [inner]:
                yield from walk(nested, item)

    for name in list_scenarios():
        scenario = load_scenario(name)
        yield from walk(type(scenario.prompt_spec), scenario.prompt_spec.to_dict())
        for item in scenario.evidence.items[:2]:
            yield from walk(type(item), item.to_dict())
    for path in sorted(BUNDLES.glob("0[1-3]-*.cbor")):
        yield py_layout.Commitments, decode(path.read_bytes())["commitments"]


def _model_of(annotation: Any) -> type[BaseModel] | None:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    for arg in getattr(annotation, "__args__", ()):
        found = _model_of(arg)
        if found is not None:
            return found
    return None


def _by_model() -> dict[str, list[Any]]:
    seen: dict[str, list[Any]] = {}
    for model, value in _examples():
        values = seen.setdefault(model.__name__, [])
        if value not in values and len(values) < 4:
            values.append(value)
    return seen


EXAMPLES = _by_model()
MODELS = {spec.model.__name__: spec.model for spec in LEAN}
RECORDS = sorted(set(EXAMPLES) & set(MODELS))


def test_every_generated_record_but_the_bundle_has_examples() -> None:
    assert set(MODELS) - set(RECORDS) == {"Bundle"}  # its leaf arrays: test_fast_path


@pytest.mark.parametrize("name", RECORDS)
def test_generated_record_accepts_only_what_its_model_accepts(name: str) -> None:
    lean: type[Struct] = getattr(records_gen, name)
    model = MODELS[name]
    refused = 0
    for value in EXAMPLES[name]:
        assert _same(lean.build(value), model.model_validate(value, strict=True))
        for mutant in mutants(value):
            try:
                record = lean.build(mutant)
            except Reject:
                refused += 1
                continue
            try:
                want = model.model_validate(mutant, strict=True)
            except ValidationError as exc:
                pytest.fail(f"lean {name} accepted what pydantic refuses: {mutant!r}\n{exc}")
            dumped = want.model_dump(mode="python", by_alias=True, exclude_none=True)
            assert dumped == mutant, "lean accepted a non-canonical form"
            assert _same(record, want)
    assert refused > 10  # the mutants do reach the checks
