"""The ruleset-independent engine: dice, events, orders, commanders, registry, scenarios."""
