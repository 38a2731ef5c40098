"""Signing benchmark (SPEC §8): EIP-712 digests, sign and verify per second.

Run from the project root::

    PYTHONPATH=. python bench/signing.py [--seconds 1.0]

Rows: the digest alone (``signing_digest``), ``sign_verdict`` (digest plus
signature plus record) and ``verify_signature`` (all SPEC §8.5 steps: encoding,
domain and field checks, digest, verification or recovery) for each scheme,
and the bare primitive over a fixed digest.  Uses fixed test-only keys: no
randomness, so runs are comparable.
"""

from __future__ import annotations

import argparse
import hashlib
import platform
import time
from collections.abc import Callable
from functools import partial

from por.signing import ed25519, secp256k1
from por.signing.eip712 import Eip712Domain, VerdictStruct, signing_digest
from por.signing.keys import PrivateKey
from por.signing.record import sign_verdict, verify_signature

KEYS = {
    "secp256k1": PrivateKey("secp256k1", hashlib.sha256(b"bench test-only secp256k1").digest()),
    "ed25519": PrivateKey("ed25519", hashlib.sha256(b"bench test-only ed25519").digest()),
}
VERDICT = VerdictStruct(
    market_id=hashlib.sha256(b"m").digest(), outcome=1, confidence_bps=8_500,
    prompt_spec_hash=bytes(32), evidence_root=b"\x01" * 32, evidence_count=3,
    reasoning_root=b"\x02" * 32, reasoning_count=7, por_root=b"\x03" * 32,
    issued_at=1_767_225_600, expires_at=1_767_312_000, nonce=1,
)
DOMAIN = Eip712Domain(chain_id=8453, verifying_contract=b"\x5f" * 20)
NOW = 1_767_225_660


def rate(fn: Callable[[], object], seconds: float) -> tuple[float, int]:
    """Operations per second of ``fn`` over about ``seconds`` (after warm-up)."""
    for _ in range(20):
        fn()
    count, start = 0, time.perf_counter()
    deadline = start + seconds
    while True:
        for _ in range(50):
            fn()
        count += 50
        now = time.perf_counter()
        if now >= deadline:
            return count / (now - start), count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="time per row")
    args = parser.parse_args()

    digest = signing_digest(VERDICT, DOMAIN)
    rows: list[tuple[str, Callable[[], object]]] = [
        ("eip712 signing_digest", lambda: signing_digest(VERDICT, DOMAIN)),
    ]
    for scheme, key in KEYS.items():
        sig = sign_verdict(VERDICT, key=key, domain=DOMAIN)
        rows.append((f"{scheme} sign_verdict",
                     partial(sign_verdict, VERDICT, key=key, domain=DOMAIN)))
        rows.append((f"{scheme} verify_signature",
                     partial(verify_signature, sig, VERDICT, now=NOW, trusted={sig.signer},
                             expected_chain_id=8453,
                             expected_contract=DOMAIN.verifying_contract)))
    secp_sig = secp256k1.sign_digest(KEYS["secp256k1"].secret, digest)
    secp_signer = secp256k1.recover_address(digest, secp_sig)
    ed_sig = ed25519.sign_digest(KEYS["ed25519"].secret, digest)
    ed_signer = ed25519.public_key_from_seed(KEYS["ed25519"].secret)
    rows += [
        ("secp256k1 sign_digest (primitive)",
         lambda: secp256k1.sign_digest(KEYS["secp256k1"].secret, digest)),
        ("secp256k1 verify_digest (recover)",
         lambda: secp256k1.verify_digest(secp_signer, digest, secp_sig)),
        ("ed25519 sign_digest (primitive)",
         lambda: ed25519.sign_digest(KEYS["ed25519"].secret, digest)),
        ("ed25519 verify_digest (primitive)",
         lambda: ed25519.verify_digest(ed_signer, digest, ed_sig)),
    ]

    print(f"python {platform.python_version()} on {platform.machine()}, "
          f"{args.seconds:.1f} s per row")
    print(f"{'operation':<36} {'ops/s':>10} {'us/op':>9} {'n':>8}")
    for name, fn in rows:
        per_second, count = rate(fn, args.seconds)
        print(f"{name:<36} {per_second:>10.0f} {1e6 / per_second:>9.1f} {count:>8}")


if __name__ == "__main__":
    main()
