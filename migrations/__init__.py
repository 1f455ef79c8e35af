"""The numbered plain-SQL migrations (`NNNN_name.sql`), shipped as package data so an installed
worldmem can migrate; `graph.platform.migrate` applies them."""

from pathlib import Path

DIRECTORY = Path(__file__).resolve().parent
