"""Side Quest (Tap To Win): a co-operative dungeon crawl for 1-4 heroes.

So far the package holds the game's content (`content.py`, `content/standard.toml`,
CONTENT.md) and RULES.md, the readings the rules follow; the rules come next.
"""
