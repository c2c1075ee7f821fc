"""sg ruleset package: exports RULESET."""

from domain.rulesets.sg.ruleset import RULESET

__all__ = ["RULESET"]
