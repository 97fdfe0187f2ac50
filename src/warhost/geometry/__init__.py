"""Board geometry that knows nothing about any rule system (see :mod:`warhost.geometry.grid`)."""
