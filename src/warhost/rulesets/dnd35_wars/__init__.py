"""`dnd35-wars`: the D&D Wars mass-combat rules for D&D 3.5 (catalog: rules/dnd35-wars.md)."""
