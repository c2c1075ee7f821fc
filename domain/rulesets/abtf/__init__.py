"""abtf ruleset package: exports RULESET."""

from domain.rulesets.abtf.ruleset import RULESET

__all__ = ["RULESET"]
