"""abtf ruleset package: exports RULESET."""

from cgledger.domain.rulesets.abtf.ruleset import RULESET

__all__ = ["RULESET"]
