"""Here to Slay (Unstable Games, 2nd edition): heroes, items, magic and monsters for 2-6.

Only the content layer exists so far (`content.py`, `content/standard.toml`); the rules
and the registry entry come later.
"""
