"""Views of battles for people: narrative text (:mod:`warhost.render.narrative`) and
battlefield maps (:mod:`warhost.render.maps`). They read events and state; the rules import
none of them."""
