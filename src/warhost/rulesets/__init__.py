"""Rule systems. Each subpackage registers itself with :mod:`warhost.core.registry`."""
