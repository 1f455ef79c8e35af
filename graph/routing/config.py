"""The clusters this process knows, from WORLDMEM_CLUSTERS, and the settings that address one of them."""

from __future__ import annotations

import psycopg

from graph.platform.clusters import cluster_settings
from graph.platform.connect import admin_url, role_url
from graph.platform.db import Database
from graph.routing.router import Router
from graph.routing.routes import DEFAULT, parse_clusters, read_route
from graph.settings import Settings


def admin_urls(settings: Settings) -> dict[str, str]:
    """Every cluster's admin URL, the default one first."""
    return {DEFAULT: admin_url(settings), **parse_clusters(settings.clusters)}


def settings_for(settings: Settings, cluster: str) -> Settings:
    """Settings addressing `cluster` as if it were the only one (connect helpers, migrator, CLI commands)."""
    if cluster == DEFAULT:
        return settings
    return cluster_settings(settings, admin_urls(settings)[cluster])


def router_for(settings: Settings, directory: Database) -> Router | None:
    """The app's router, or None with no other cluster configured (then nothing is looked up per request)."""
    others = parse_clusters(settings.clusters)
    if not others:
        return None
    urls = {name: role_url(cluster_settings(settings, url), "app") for name, url in others.items()}
    return Router(directory, urls, ttl_s=settings.token_cache_s, pool_max_size=settings.pool_max_size,
                  statement_timeout_ms=settings.statement_timeout_ms)


def owner_settings(settings: Settings, owner: str) -> Settings:
    """Settings addressing the cluster `owner` lives on (for CLI commands that take an owner); the settings
    themselves with one cluster, without asking the directory."""
    if not parse_clusters(settings.clusters):
        return settings
    with psycopg.connect(admin_url(settings), autocommit=True, connect_timeout=10) as conn:
        return settings_for(settings, read_route(conn, owner).cluster)
