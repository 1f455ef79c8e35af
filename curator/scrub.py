"""Secrets never reach the curator's LLM: the store's scrubber (graph.platform.scrub), which also cleans every
episode before it is stored or embedded."""

from __future__ import annotations

from graph.platform.scrub import PATTERNS as PATTERNS
from graph.platform.scrub import scrub as scrub
from graph.platform.scrub import scrub_value as scrub_value
