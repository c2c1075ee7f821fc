"""sg ruleset package: exports RULESET."""

from cgledger.domain.rulesets.sg.ruleset import RULESET

__all__ = ["RULESET"]
