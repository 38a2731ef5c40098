"""The check-chunk executor on chain forms (SPEC §10.4.4, §12.5.3 on §5.6's layouts):
Python's twin of ``contracts/src/forms/PorCheckForm.sol`` after ``PorForms.included``.

The carried forms: ``forms[0]`` the step's CHUNK, ``forms[1]`` COMMON, ``forms[2]`` the
REQUIREMENT of the step's requirement R (any REQUIREMENT when COMMON lists no R), then the
forms of the step's ``prior_step_ids`` in citation order. The answer: won
``one_step.id_position``, ``one_step.prior_order``, ``one_step.unexecutable`` (cause
``step.bad_inputs``, ``step.citation_mismatch`` or ``step.bad_prior_output`` where the
forms show it, in Python's order), ``one_step.mismatch``; lost ``one_step.match``.
:class:`FormFault` where a carried form does not parse or its tag is not its index's,
:class:`CitationsFault` where form i is not the step's citation or not R's REQUIREMENT.
"""

from __future__ import annotations

from collections.abc import Sequence

from por.forms.execute import EXECUTORS, Answer, CitationsFault
from por.forms.execute.check_items import Item, Rules, admit, read_item
from por.forms.execute.check_read import code, count, d_end, hash_t, int64w, t_end, t_size, w
from por.forms.execute.check_state import Group, Prior, load_groups, read_prior
from por.forms.execute.check_write import Ctx, build
from por.forms.execute.read import fault, step_id_hash
from por.forms.words import CHUNK, COMMON, EXTRACT, MAP, REQUIREMENT

BAD_INPUTS = "step.bad_inputs"
CITATION_MISMATCH = "step.citation_mismatch"
BAD_PRIOR_OUTPUT = "step.bad_prior_output"
#: At most this many items in a chunk (SPEC §12.5.3).
CHUNK_ITEMS = 10


def _slot(f: bytes) -> bytes:
    if len(f) < 32 or len(f) % 32:
        fault("a form is not a whole number of words")
    return f


def _tagged(f: bytes, tag: int) -> bytes:
    if w(_slot(f), 0) != tag:
        fault(f"a carried form's tag is not {tag}")
    return f


def run(forms: Sequence[bytes], index: Sequence[int], size: int) -> Answer:
    """The check executor's answer on the carried ``forms`` (inclusion checked)."""
    c = _roles(forms, index, size)
    if c.step[32:64] != step_id_hash(c.step_index - c.r):
        return Answer(True, "one_step.id_position")
    if any(i >= c.step_index for i in index[3:]):
        return Answer(True, "one_step.prior_order")
    cause, items, prior, groups = _causes(c, forms, index)
    if cause:
        return Answer(True, "one_step.unexecutable", cause)
    _admit(c, items)
    if build(c, prior, items, groups):
        return Answer(False, "one_step.match")
    return Answer(True, "one_step.mismatch")


def _roles(forms: Sequence[bytes], index: Sequence[int], size: int) -> Ctx:
    """Tags by index, the step's head, its citations (the carried priors are its
    ``prior_step_ids``), R's row in COMMON and its REQUIREMENT."""
    if len(forms) < 3:
        fault("fewer than three carried forms")
    c = Ctx(_tagged(forms[0], CHUNK), _tagged(forms[1], COMMON), _tagged(forms[2], REQUIREMENT))
    table = d_end(c.common, 96)
    c.r = count(c.common, table, 4)
    first = 1 + c.r
    c.step_index = index[0]
    if (index[1] != 0 or index[2] == 0 or index[2] > c.r or c.step_index < first
            or c.step_index + 1 >= size):
        fault("a carried form's index is not its role's")
    for f, i in zip(forms[3:], index[3:], strict=True):
        tag = w(_slot(f), 0)
        if tag < EXTRACT or tag > MAP or i < first or i + 1 >= size:
            fault("a cited form's tag or index is not a step's")
    step = c.step
    q = 288 + 128 * count(step, 256, 4)
    c.rid_t = q
    q = t_end(step, q) + 32
    w(step, q - 32)  # Ri
    n = count(step, q, 1)
    if n != len(forms) - 3:
        raise CitationsFault(len(forms), "not one carried form per prior step id")
    for k in range(n):
        f = _slot(forms[3 + k])
        if w(f, 32) != w(step, q + 32 + 32 * k):
            raise CitationsFault(3 + k, f"carried form {3 + k} is not the step's citation")
    c.evidence = q + 32 + 32 * n
    c.head_end = c.evidence + 32 + 32 * count(step, c.evidence, 1)  # L[H]
    c.rid = hash_t(step, c.rid_t)
    c.row = c.r
    for k in range(c.r):
        if w(c.common, table + 32 + 128 * k).to_bytes(32, "big") == c.rid:
            c.row = k
            break
    if c.row < c.r:
        if index[2] != 1 + c.row:
            raise CitationsFault(2, "carried form 2 is not R's REQUIREMENT")
        if w(c.req, 32).to_bytes(32, "big") != c.rid:
            fault("R's REQUIREMENT names another requirement")
    return c


Causes = tuple[str, list[Item], Prior, list[Group]]


def _causes(c: Ctx, forms: Sequence[bytes], index: Sequence[int]) -> Causes:
    """Python's checks before the chunk's computation, in its order (``recompute_step``,
    ``check_requirement_step``): "" when all hold, else the cause; the items, P's state
    and its groups read on the way."""
    step = c.step
    items: list[Item] = []
    prior = Prior()
    groups: list[Group] = []
    if w(step, c.rid_t + t_size(step, c.rid_t)) != 0:
        return BAD_INPUTS, items, prior, groups  # inputs with another key
    extracts, chunk_at, cause = _split(forms)
    bad_claim = False
    if not cause:
        cause, bad_claim = _cards(c, forms, index, extracts, items)
    if not cause:
        cause, prior = _prior(c, forms, chunk_at, items)
        groups = prior.groups
    if not cause and bad_claim:
        cause = BAD_PRIOR_OUTPUT  # `read_extracts`, after the order
    # the recomputed step cites its extract steps, then P: P elsewhere fails
    # `recompute_step`'s last check (its prior_step_ids), before the comparison
    if not cause and chunk_at != 0 and chunk_at != len(forms) - 1:
        cause = CITATION_MISMATCH
    return cause, items, prior, groups


def _split(forms: Sequence[bytes]) -> tuple[list[int], int, str]:
    """Python's ``_split``: the extract steps' positions in ``forms``, P's (0: none); a
    cited step of another kind, or a second chunk, is ``step.citation_mismatch``."""
    extracts: list[int] = []
    chunk_at = chunks = 0
    for i in range(3, len(forms)):
        tag = w(_slot(forms[i]), 0)
        if tag == EXTRACT:
            extracts.append(i)
        elif tag == CHUNK:
            chunk_at = i
            chunks += 1
        else:
            return extracts, chunk_at, CITATION_MISMATCH
    return extracts, chunk_at, CITATION_MISMATCH if chunks > 1 else ""


def _cards(c: Ctx, forms: Sequence[bytes], index: Sequence[int], extracts: list[int],
           items: list[Item]) -> tuple[str, bool]:
    """The cards (one per evidence id, each the cited id), R (``bad_inputs`` when COMMON
    lists no R), at most 10 items, each of R; whether a timestamp claim is above
    2^63-1 (Python's bad claim value, raised later)."""
    step = c.step
    if len(extracts) != w(step, c.evidence):
        return CITATION_MISMATCH, False
    bad_claim = False
    for at in extracts:
        item, bad = read_item(_slot(forms[at]))
        item.leaf = index[at] - 1 - c.r
        items.append(item)
        bad_claim = bad_claim or bad
    e = c.evidence + 32  # each cited id's H against the item's word 4
    for k, it in enumerate(items):
        if it.f[128:160] != step[e + 32 * k:e + 32 * k + 32]:
            return CITATION_MISMATCH, bad_claim
    if c.row == c.r:
        return BAD_INPUTS, bad_claim
    if len(items) > CHUNK_ITEMS:
        return CITATION_MISMATCH, bad_claim
    if any(it.f[it.tail:it.tail + 32] != c.rid for it in items):
        return CITATION_MISMATCH, bad_claim
    return "", bad_claim


def _prior(c: Ctx, forms: Sequence[bytes], chunk_at: int, items: list[Item]) -> tuple[str, Prior]:
    """P's state (P of R, its state well formed), the chunk after a full P with items,
    the items' leaves strictly increasing after P's ``last_leaf``; P's groups."""
    prior = Prior()
    if chunk_at:
        f = _slot(forms[chunk_at])
        prior, bad = read_prior(f)
        q, bad_groups = load_groups(prior)
        w(f, q)  # the output's rest, not read
        if t_end(f, q + 32) != len(f):
            fault("bytes after a CHUNK's last word")
        size = t_size(f, prior.rid_t)
        if (f[prior.rid_t:prior.rid_t + size] != c.step[c.rid_t:c.rid_t + size]
                or prior.out_rid != c.rid):
            return CITATION_MISMATCH, prior
        if bad or bad_groups:
            return BAD_PRIOR_OUTPUT, prior
        if not items or prior.item_count != CHUNK_ITEMS * (prior.chunk + 1):
            return CITATION_MISMATCH, prior
    last = prior.last + 1 if prior.has_last else 0  # leaves at or above `last`
    for it in items:
        if it.leaf < last:
            return CITATION_MISMATCH, prior
        last = it.leaf + 1
    return "", prior


def _admit(c: Ctx, items: list[Item]) -> None:
    """The admission's rules from COMMON and REQUIREMENT (both walked to the words read),
    then each item admitted."""
    f = c.common
    q = d_end(f, 96)
    min_tier = int64w(f, q + 32 + 128 * c.row + 96)
    q += 32 + 128 * c.r + 32  # the window's start
    start = int64w(f, q)
    slack = int64w(f, q + 64)
    end = int64w(f, q + 32) + slack
    allowed = q + 96
    q = allowed + 32 + 32 * count(f, allowed, 1)
    q += 32 + 32 * count(f, q, 1)  # rules
    code(f, q, 1)  # on_conflict
    code(f, q + 64, 1)  # strict mode
    skip_metric = code(f, q + 256, 5) == 5  # timestamp_threshold
    metric = f[32:64]
    req = c.req
    targets = 192
    q = targets + 32 + 32 * count(req, targets, 1)
    fields = count(req, q, 2)  # L[E(kind) H(key)]
    q += 32
    for _ in range(fields):
        code(req, q, 3)
        q += 64
    codes = 0
    if code(req, q, 1) == 1:
        codes = q + 32
        q += 64 + 32 * count(req, q + 32, 1)
    else:
        q += 32
    if q != len(req):
        fault("bytes after a REQUIREMENT's last word")
    rules = Rules(start - slack if start > slack else 0, end, metric, skip_metric, f, allowed,
                  req, targets, codes, min_tier)
    for it in items:
        admit(it, rules)


EXECUTORS["check"] = run
