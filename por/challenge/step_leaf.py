"""A committed step leaf's decoded value for the proof builders' scans (SPEC §17.1).

The builders locate ids and citations over every step leaf with cbor2's C decoder
(about 7 us per leaf, the strict decoder 100+ us); the proof's checker then decodes
every carried leaf strictly.  cbor2 has no item cap: a forged leaf of millions of
one-byte items would be materialised whole (``bench/hostile.py --challenges``,
``output_bytes``: some 300 MiB at 16 MB).  A leaf of at most ``CBOR2_BYTES`` bytes
holds at most that many items, so cbor2 reads it; a longer one is read by the strict
decoder (§2) under ``MAX_STEP_ITEMS``, which refuses a container past the cap at its
head, so a scan holds at most the cap's items of any leaf.  A leaf over the cap is
not a valid step record (§17.1): it reads as None here and is shown by the proof of
its own leaf (an inclusion proof of an invalid record, or its replay).
"""

from __future__ import annotations

from typing import Any

import cbor2

from por.encoding import decode
from por.protocol.limits import MAX_STEP_ITEMS

#: Longest step leaf read with cbor2 (an honest step is a few KB, SPEC §12.5).
CBOR2_BYTES = 65_536


def step_value(leaf: bytes) -> Any:
    """The decoded value of a step leaf, or None when it does not decode (or holds
    more than ``MAX_STEP_ITEMS`` items, when longer than ``CBOR2_BYTES``)."""
    try:
        if len(leaf) <= CBOR2_BYTES:
            return cbor2.loads(leaf)
        return decode(leaf, max_items=MAX_STEP_ITEMS)
    except Exception:
        return None


__all__ = ["CBOR2_BYTES", "step_value"]
