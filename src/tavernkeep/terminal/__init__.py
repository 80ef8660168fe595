"""Terminal front-end: play and replay games with Rich."""
