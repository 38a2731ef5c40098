"""The court's judge system (seed 003): ``from por.court.seed003 import LLMJudge,
DisputeContext, JudgeVote``.  No HTTP framework; litellm is imported only when a
judge calls a model through ``api_base``."""

from por.court.seed003.base import DisputeContext, Judge, JudgeVote
from por.court.seed003.llm_judge import LLMJudge
from por.court.seed003.prompts import EVALUATION_TEMPLATE, EVALUATION_TEMPLATE_V2, SYSTEM_PROMPT

__all__ = ["EVALUATION_TEMPLATE", "EVALUATION_TEMPLATE_V2", "SYSTEM_PROMPT", "DisputeContext",
           "Judge", "JudgeVote", "LLMJudge"]
