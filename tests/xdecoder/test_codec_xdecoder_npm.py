"""Cross-implementation check with the npm package cbor2 (BAD_INPUTS group 24).

tests/xdecoder/decode.mjs decodes each input with npm cbor2's strict CDE
options and walks the result for the por-cbor/1 data model.  Accept/reject
must match por.encoding.decode on the whole shared corpus.  Needs node and
`npm ci` in tests/xdecoder (package-lock.json pins cbor2 2.3.0); skipped
otherwise.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

from codec_xcorpus import corpus
from setup_gate import needs

from por.encoding import decode
from por.errors import EncodingError

HERE = Path(__file__).parent
NODE = shutil.which("node")

pytestmark = needs(
    "xdecoder-npm",
    "node is not installed" if NODE is None
    else None if (HERE / "node_modules" / "cbor2").is_dir()
    else "npm cbor2 2.3.0 is not installed in tests/xdecoder",
)


def _npm_verdicts(inputs: list[bytes]) -> list[str]:
    assert NODE is not None
    stdin = "".join(data.hex() + "\n" for data in inputs)
    result = subprocess.run(
        [NODE, str(HERE / "decode.mjs")],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    lines = result.stdout.split("\n")[:-1]
    assert len(lines) == len(inputs), result.stderr[-2000:]
    return lines


def _ours(data: bytes) -> bool:
    try:
        decode(data)
    except EncodingError:
        return False
    return True


def test_npm_cbor2_sanity() -> None:
    verdicts = _npm_verdicts([b"\x00", b"", b"\x18\x17", b"\xa2\x61\x62\x01\x61\x61\x02"])
    assert verdicts[0] == "accept"
    assert [v.split()[0] for v in verdicts[1:]] == ["reject"] * 3


def test_npm_cbor2_agrees_on_the_corpus() -> None:
    inputs = corpus()
    verdicts = _npm_verdicts(inputs)
    problems = []
    for data, verdict in zip(inputs, verdicts, strict=True):
        ours = _ours(data)
        if ours != (verdict == "accept"):
            problems.append(
                f"{data.hex()[:80]}: por {'accepts' if ours else 'rejects'}, npm {verdict}"
            )
    assert problems == []
