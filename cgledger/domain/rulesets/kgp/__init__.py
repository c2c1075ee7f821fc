"""kgp ruleset package: exports RULESET."""

from cgledger.domain.rulesets.kgp.ruleset import RULESET

__all__ = ["RULESET"]
