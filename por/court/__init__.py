"""The dispute court (seed 003, SPEC §16): N locked LLM judges rule on a dispute that a
one-step proof cannot settle.

* :mod:`por.court.seed003` -- the seed's judge system (``Judge``, ``LLMJudge``, ...);
* :mod:`por.court.case` -- a ``por.DisputeCase/1`` from a PoR bundle, a leaf and a claim;
* :mod:`por.court.aggregate` -- the ruling rule (upper median, quorum, split, dissent);
* :mod:`por.court.records`, :mod:`por.court.layout` -- votes, rulings, the court bundle;
* :mod:`por.court.panel` -- a panel judging a case (and its appeal);
* :mod:`por.court.verify` -- offline verification of a court bundle;
* :mod:`por.court.eip712` -- the signed EIP-712 ``Ruling``.

Nothing here imports litellm, llama-cpp or an HTTP framework at import time.
"""
