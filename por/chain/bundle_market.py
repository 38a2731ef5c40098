"""The market a bundle's verdict was signed for, as the registry keys it (SPEC §14.2,
§14.5): ``por chain settle|commit|finalize --bundle BUNDLE`` reads it instead of
``--market TEXT --prompt-spec-hash HEX``.

The values are the bundle's own, as signed (SPEC §8.1): the verdict record's
``market_id`` text (``marketId`` is its keccak256) and the committed
``prompt_spec_hash`` and ``por_root`` of ``commitments``.  Only the container and
the verdict record are decoded (strictly, under the bundle caps); nothing is
verified: a bundle that does not verify still names the market its signature
binds, and that is the market a challenger strikes.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class BundleMarket:
    """A bundle's market id text, signed ``promptSpecHash`` and ``por_root``."""

    market: str
    prompt_spec_hash: bytes
    por_root: bytes


def bundle_market(data: bytes, *, max_size: int) -> BundleMarket:
    """The :class:`BundleMarket` of ``bundle.cbor`` bytes ``data``.

    Raises the decoder's failure (``codec.*``, ``bundle.*``, ``schema.*``: exit 1)
    for bytes that are not a bundle with a verdict record."""
    from por.challenge.refs import bundle_from_bytes  # noqa: PLC0415 - on use
    from por.schemas import DeterministicVerdict  # noqa: PLC0415

    bundle = bundle_from_bytes(data, max_size=max_size)
    verdict = DeterministicVerdict.from_cbor(bundle.verdict)
    return BundleMarket(market=verdict.market_id,
                        prompt_spec_hash=bundle.commitments.prompt_spec_hash,
                        por_root=bundle.commitments.por_root)


__all__ = ["BundleMarket", "bundle_market"]
