"""The one settings class. Read once per process through `get_settings()`."""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path
from typing import Literal

from pydantic import Field, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

import migrations

REPO_ROOT = Path(__file__).resolve().parent.parent
# The AGE graph is fixed by the migrations; its name is never taken from input.
GRAPH_NAME = "worldgraph"
IDENTIFIER = re.compile(r"^[a-z_][a-z0-9_]{2,62}$")


class Settings(BaseSettings):
    """Every knob of worldmem, from `WORLDMEM_*` environment variables."""

    model_config = SettingsConfigDict(env_prefix="WORLDMEM_", extra="ignore")

    data_dir: Path = Field(
        default=Path.home() / ".local" / "share" / "worldmem",
        description="Where the embedded database root, its secrets and caches live (outside the repo).",
    )
    database_url: str | None = Field(
        default=None,
        description="Bring your own PostgreSQL (>= 16, AGE >= 1.7, pgvector): an admin URL. "
        "When set, nothing is provisioned.",
    )
    clusters: str = Field(
        default="", description="Other clusters owners may live on, `name=admin URL` pairs separated by commas "
        "(`b=postgresql://postgres:PW@10.0.0.2:5432/worldmem`); the default cluster is `main`. Empty: one "
        "cluster and no route lookups (docs/operations/clusters.md).")
    db_name: str = Field(default="worldmem", description="Database name in the embedded cluster.")
    db_port: int = Field(default=54318, description="Port of the embedded cluster on 127.0.0.1.")
    db_socket: bool = Field(
        default=True, description="The application role reaches the embedded cluster over its Unix socket "
        "(<data_dir>/root/run/postgresql; a point read's p50 0.02-0.15 ms lower than over TCP); "
        "off: over 127.0.0.1 like the admin role. Ignored with database_url.")
    debian_suite: str = Field(default="forky", description="Debian suite for the embedded root (forky or sid).")
    debian_mirror: str | None = Field(
        default=None, description="Debian mirror for the embedded root; default: the host's apt sources.")
    age_package_version: str = Field(
        default="1.8.0~rc0-2", description="Pinned postgresql-18-age version for a new root ('' = newest).")
    read_database_url: str | None = Field(
        default=None, description="One or more application-role URLs of streaming-replication standbys, "
        "comma-separated: GraphQL queries (read tools, search, worldContext, the console) read there, writes "
        "and everything else go to the primary; a read waits for the standby to replay the owner's last commit "
        "(read_wait_ms), else the primary answers (docs/operations/replicas.md).")
    read_wait_ms: float = Field(
        default=50.0, ge=0, le=10_000, description="How long a read waits for a standby to replay the commit it "
        "must see (the client's Worldmem-Read-After, or the owner's last commit in this process) before the "
        "primary answers it.")
    replica_port: int | None = Field(
        default=None, description="Port of the standby `worldmem db replica up` starts in the embedded root; "
        "default: db_port + 10.")
    host: str = Field(default="127.0.0.1", description="Address `worldmem serve` binds (and `worldmem mcp` calls).")
    port: int = Field(default=8000, description="Port of `worldmem serve`: the explorer at /, GraphQL at /graphql.")
    migrations_dir: Path = Field(default=migrations.DIRECTORY, description="The packaged migrations by default.")
    pool_max_size: int = Field(default=8, description="Connections per pool of one server process.")
    statement_timeout_ms: int = Field(
        default=5000, description="A statement on the app's connections ends after this long.")
    console_timeout_ms: int = Field(default=2000, description="A Cypher console query ends after this long.")
    console_row_limit: int = Field(default=1000, description="Rows a console answer carries at most (then truncated).")
    max_request_bytes: int = Field(default=1_000_000, description="Larger GraphQL bodies are refused.")
    max_sync_request_bytes: int = Field(
        default=16_000_000, description="Largest body an integration token may send (syncEntities, 10k entries).")
    max_import_request_bytes: int = Field(
        default=32_000_000, description="Largest body an owner or agent token may send (importConversation, "
                                        "10k turns).")
    pending_below_confidence: float = Field(
        default=0.5, description="Assertions less confident than this wait as pending for review.")
    max_value_bytes: int = Field(default=16_384, description="Largest JSON value of one fact.")
    curator_model: str | None = Field(
        default=None, description="The curator's LLM: a pydantic-ai model string (e.g. openai:gpt-4o-mini). "
        "Unset: turns are stored and wait in the backlog (curatorStatus says so).")
    curator_base_url: str | None = Field(
        default=None, description="An OpenAI-compatible server for the curator (Ollama, vLLM): its /v1 URL.")
    curator_api_key: str | None = Field(default=None, description="API key for curator_base_url, if it needs one.")
    curator_model_name: str = Field(default="llama3.1", description="Model name at curator_base_url.")
    curator_timeout_s: float = Field(default=60.0, description="One curator LLM call longer than this fails.")
    curator_output_mode: Literal["auto", "tool", "native", "prompted"] = Field(
        default="auto", description="How the curator asks for structured output: tool calls, a JSON-schema "
        "response format (native), JSON asked for in the prompt, or auto (tool, then native, then prompted, "
        "moving on when the server refuses one).")
    curator_check_timeout_s: float = Field(
        default=30.0, gt=0, description="The model check (at start, `worldmem curator check`) waits this long.")
    curator_check_on_start: bool = Field(
        default=True, description="Check the model when the server and worker start (one call with the output "
        "schema, a few thousand tokens); off: the model is trusted until a curator call fails.")
    curator_recheck_s: float = Field(
        default=60.0, gt=0, description="While the model check fails, the server checks again this often.")
    curator_debounce_s: float = Field(default=30.0, description="Curate a chat after this much inactivity...")
    curator_debounce_turns: int = Field(default=5, description="...or after this many new turns.")
    curator_max_turns: int = Field(default=20, description="Un-curated turns one curator run reads at most.")
    curator_max_tokens: int = Field(default=8000, description="About this many tokens of turns per run.")
    curator_max_operations: int = Field(
        default=200, ge=1, le=500, description="Operations one curator run commits at most; the rest of a longer "
        "answer is dropped (recorded as TOO_MANY_OPS), and the one retry of a bad answer asks for at most this many.")
    curator_catchup_s: float = Field(default=300.0, description="Chats whose watermark lags this long are caught up.")
    temporal_address: str | None = Field(
        default=None, description="host:port of Temporal; set: the curator runs durably there, else inline.")
    temporal_namespace: str = Field(default="default", description="Temporal namespace of the workflows.")
    curator_activity_timeout_s: float = Field(
        default=180.0, description="A curator activity (on Temporal) not done by then is retried on another worker.")
    temporal_heartbeat_timeout_s: float = Field(
        default=10.0, gt=0, description="A Temporal activity (curator, retention, finder) whose worker sent no "
        "heartbeat this long is taken for dead and retried on another worker (docs/operations/temporal.md).")
    temporal_task_queue: str = Field(
        default="worldmem-curator", description="Task queue `worldmem worker` polls (curator, retention, finder).")
    retention_window_days: int = Field(
        default=90, ge=1, le=36_500, description="Windowed data (observed state) is kept in full this many days.")
    retention_episode_days: int | None = Field(
        default=None, ge=1, le=36_500, description="Curated chat turns (episodes) are kept in full this many days, "
                                                   "then rolled up per chat and month; unset: kept for good.")
    retention_every_hours: float = Field(
        default=24.0, gt=0, description="How often the Temporal schedule runs the retention job.")
    curator_quota_tokens_per_day: int = Field(
        default=500_000, ge=0, description="Curator LLM tokens an owner's bucket refills per day.")
    curator_quota_burst: int = Field(
        default=100_000, ge=0, description="The bucket's capacity: most tokens an owner can spend at once.")
    body_timeout_s: float = Field(default=10.0, description="A request body must arrive within this time.")
    max_query_tokens: int = Field(default=5_000, description="Longer GraphQL documents are refused unparsed.")
    max_query_aliases: int = Field(default=30, description="More aliases in one document are refused.")
    owner_db_share: int = Field(
        default=2, description="Database calls one owner may run at once (the rest of that owner's wait).")
    owner_request_share: int = Field(
        default=4, ge=0, le=1000, description="HTTP requests of one owner in progress at once in a server process "
        "(the rest of that owner's wait their turn before any work; 0: no bound): one owner's flood leaves "
        "another owner's requests at most this many in their way (resolvers/admission.py).")
    request_db_budget_s: float = Field(
        default=10.0, description="Database time (including waiting for it) one GraphQL request may use.")
    embedding_provider: Literal["offline", "openai", "none"] = Field(
        default="offline", description="The finder's embedding model: the offline default (USE multilingual v3, "
        "shipped in its wheel), an OpenAI-compatible endpoint (embedding_base_url), or none (full text and "
        "names only).")
    embedding_base_url: str | None = Field(
        default=None, description="OpenAI-compatible /v1 base URL for embedding_provider=openai (e.g. Ollama).")
    embedding_model_name: str = Field(default="nomic-embed-text", description="Model name at embedding_base_url.")
    embedding_api_key: str | None = Field(default=None, description="API key for embedding_base_url, if needed.")
    embedding_timeout_s: float = Field(default=10.0, description="One embedding request longer than this fails.")
    embedding_batch: int = Field(default=64, description="Projections the reconciler embeds per call.")
    finder_background: bool = Field(
        default=True, description="The server reconciles projections in a background thread (after commits).")
    finder_sweep_s: float = Field(
        default=300.0, description="The background thread sweeps every owner this often (0: only after commits).")
    query_vectors: int = Field(
        default=512, ge=0, le=100_000, description="Query embeddings a server process remembers (the newest, by "
        "model and text), so a repeated search skips the model (0: none; graph/finder/query_vectors.py).")
    metrics_token: str | None = Field(
        default=None, description="Bearer token GET /metrics requires (its totals span every owner); unset: "
        "only clients on this machine, not through a proxy, may read it (docs/operations-security.md).")
    token_cache_s: float = Field(
        default=2.0, ge=0, le=60, description="A verified token is trusted this long without asking the "
        "database again (0: every request asks), so a revoked token is refused at most this much later.")
    workers: int = Field(default=1, ge=1, le=64, description="Server processes of `worldmem serve` "
                         "(each with its own pool of pool_max_size connections); 2 on a 2-core machine.")
    access_log: bool = Field(
        default=True, description="One line per request on stdout, uvicorn's format (resolvers/access_log.py).")

    @field_validator("db_name")
    @classmethod
    def _identifier(cls, value: str) -> str:
        if not IDENTIFIER.match(value):
            raise ValueError("must match ^[a-z_][a-z0-9_]{2,62}$")
        return value

    @property
    def root_dir(self) -> Path:
        return self.data_dir / "root"

    @property
    def socket_dir(self) -> Path:
        """Where the embedded cluster puts its Unix socket: the root's /run/postgresql (Debian's
        unix_socket_directories is /var/run/postgresql, and the root's /var/run links to /run)."""
        return self.root_dir / "run" / "postgresql"

    @property
    def secrets_file(self) -> Path:
        return self.data_dir / "secrets.json"


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    return Settings()
