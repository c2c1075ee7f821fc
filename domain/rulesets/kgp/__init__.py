"""kgp ruleset package: exports RULESET."""

from domain.rulesets.kgp.ruleset import RULESET

__all__ = ["RULESET"]
