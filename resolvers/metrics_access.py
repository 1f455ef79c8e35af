"""Who may read GET /metrics: its totals span every owner (requests, curator outcomes, queue depths), so it is
never public.

- `Settings.metrics_token` set (WORLDMEM_METRICS_TOKEN): the scraper sends `Authorization: Bearer <it>`, from
  anywhere, also from this machine (compared in constant time; an API token is not a metrics token).
- Not set: only a client on this machine (a loopback address) gets it, and not through a proxy: a request
  carrying Forwarded, X-Forwarded-For or X-Real-IP was relayed, and a reverse proxy on this machine would
  otherwise make every client of the internet look local.
"""

from __future__ import annotations

import hmac
import ipaddress

from starlette.requests import Request

from resolvers.context import bearer_token

PROXY_HEADERS = ("forwarded", "x-forwarded-for", "x-real-ip")
NEEDS_TOKEN = "GET /metrics needs `Authorization: Bearer <WORLDMEM_METRICS_TOKEN>`"
LOCAL_ONLY = ("GET /metrics answers only clients on this machine; set WORLDMEM_METRICS_TOKEN to scrape it from "
              "elsewhere or through a proxy (docs/operations-security.md)")


def refusal(request: Request, metrics_token: str | None) -> tuple[int, str] | None:
    """None when `request` may read the metrics, else the HTTP status and the reason."""
    if metrics_token:
        sent = bearer_token(request.headers.get("authorization")) or ""
        if hmac.compare_digest(sent.encode(), metrics_token.encode()):
            return None
        return 401, NEEDS_TOKEN
    if any(name in request.headers for name in PROXY_HEADERS) or not loopback(request):
        return 403, LOCAL_ONLY
    return None


def loopback(request: Request) -> bool:
    host = request.client.host if request.client else ""
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:  # no address at all (a Unix socket's peer, a test transport's name): not known local
        return False
