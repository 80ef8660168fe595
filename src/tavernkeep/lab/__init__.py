"""Simulation at scale: many bot games, their results, and what they say about balance."""
