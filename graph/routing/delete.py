"""Deleting an owner that may live on another cluster: its data there, its tokens and route in the directory."""

from __future__ import annotations

import psycopg

from graph.erasure.owner import OwnerDeletion, delete_as_admin
from graph.platform.connect import admin_url
from graph.routing.config import owner_settings
from graph.settings import Settings
from graph.sql import load


def delete_owner(settings: Settings, owner: str) -> OwnerDeletion:
    """Everything of `owner` on its cluster (the receipt returned), then, when that is not the directory,
    its tokens there and its route (a second receipt, kept in the directory's owner_deletions)."""
    home = owner_settings(settings, owner)
    receipt = delete_as_admin(admin_url(home), owner)
    if home is not settings:
        delete_as_admin(admin_url(settings), owner)
    with psycopg.connect(admin_url(settings), autocommit=True, connect_timeout=10) as conn:
        conn.execute(load("route_forget"), {"owner": owner})
    return receipt
