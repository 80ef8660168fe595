"""Hack & Slash (Steve Jackson Games, 2021): push-your-luck quest dice for 3-6 players."""

from tavernkeep.games.hack_and_slash.rules import HackAndSlash, HackAndSlashState

GAME = HackAndSlash()

__all__ = ["GAME", "HackAndSlash", "HackAndSlashState"]
