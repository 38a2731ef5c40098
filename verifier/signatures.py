"""Step 8: signatures over the verdict (SPEC §8).  Filled in with por.signing."""

from __future__ import annotations

from verifier.context import Context


def step8_signatures(ctx: Context) -> None:
    """Step 8: every signature verifies; with ``require_signature`` one is trusted."""
    bundle = ctx.parts["bundle"]
    if ctx.options["require_signature"] and not bundle.signatures:
        ctx.failed("signature.missing", "a signature from a trusted key is required")
    if bundle.signatures:
        ctx.failed("signature.unsupported", "signature checks are not available",
                   status="error")
