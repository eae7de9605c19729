"""Rules as data: options, variants and the frozen :class:`Rules` value."""

from mushka.rules.choices import AllPass, FlushMode, LonePlayer, PrivilegedFour, Redistribution, Renege
from mushka.rules.model import Rules, make_rules, rules_from_text
from mushka.rules.options import OPTIONS, OptionSpec, options_for, parse_assignment
from mushka.rules.variants import VARIANTS, Variant, find_variant

__all__ = [
    "OPTIONS",
    "VARIANTS",
    "AllPass",
    "FlushMode",
    "LonePlayer",
    "OptionSpec",
    "PrivilegedFour",
    "Redistribution",
    "Renege",
    "Rules",
    "Variant",
    "find_variant",
    "make_rules",
    "options_for",
    "parse_assignment",
    "rules_from_text",
]
