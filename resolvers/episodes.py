"""importConversation: a whole conversation's turns as episodes, in one call (graph.episodes.store).

All or nothing and replayable; owner and agent tokens (an integration writes observed state, not the owner's
conversations). The turns are committed first (found by words from then on); their vectors are stored
before the call returns (the model starts on the texts while the turns commit: graph.episodes.store), so an
agent that searches right after the import searches them by meaning too. What the model could not embed
waits for the finder's thread, nudged here. `curate: true` hands the new turns to the curator's listener as one backlog.
"""

from __future__ import annotations

import logging
from datetime import datetime
from typing import Any

import strawberry
from pydantic import ValidationError
from strawberry.types import Info

from curator import turns as t
from graph.episodes import model, store
from graph.errors import BadInput, Forbidden
from graph.finder.embedders import embedder_for
from graph.finder.nudger import Nudger
from resolvers.context import blocking, database, principal
from resolvers.curator_types import TurnRole

log = logging.getLogger("worldmem.episodes")


@strawberry.input(description="One turn of an imported conversation")
class ImportTurnInput:
    external_id: str = strawberry.field(description="The caller's id of the turn: one turn per id and chat; a "
                                                    "replay with the same text changes nothing")
    role: TurnRole
    speaker: str | None = strawberry.field(default=None, description="Who spoke, by name (beside the role)")
    text: str
    occurred_at: datetime = strawberry.field(description="When it was said")


@strawberry.type(description="What an import stored")
class ImportResult:
    chat_id: str
    imported: int = strawberry.field(description="New turns stored")
    unchanged: int = strawberry.field(description="Turns the chat already held with the same text (a replay)")
    curate: bool = strawberry.field(description="Whether the new turns wait for the curator")


def _episodes(turns: list[ImportTurnInput]) -> list[model.EpisodeIn]:
    if len(turns) > model.MAX_TURNS:  # before validating 10,001 of them
        raise BadInput(f"an import takes at most {model.MAX_TURNS} turns, not {len(turns)}", code="TOO_MANY_TURNS")
    out = []
    for i, turn in enumerate(turns):
        try:
            out.append(model.EpisodeIn(external_id=turn.external_id, role=turn.role.value, speaker=turn.speaker,
                                       text=turn.text, occurred_at=turn.occurred_at))
        except ValidationError as exc:
            problems = "; ".join(f"{'.'.join(str(x) for x in e['loc'])}: {e['msg']}" for e in exc.errors()[:3])
            raise BadInput(f"turns[{i}]: {problems}", code="INVALID_TURN") from None
    return out


async def import_conversation(info: Info[Any, Any], chat_id: str, turns: list[ImportTurnInput],
                              curate: bool = False) -> ImportResult:
    who = principal(info)
    if who.kind not in ("owner", "agent"):
        raise Forbidden("importConversation takes owner and agent tokens")
    if not 1 <= len(chat_id) <= model.MAX_ID:
        raise BadInput(f"chatId must be 1 to {model.MAX_ID} characters", code="INVALID_TURN")
    db = database(info)
    embedder = embedder_for(info.context.settings)
    done = await blocking(store.import_turns, db, who.owner, chat_id, _episodes(turns), curate=curate,
                          embedder=embedder)
    finder: Nudger | None = getattr(info.context.request.app.state, "finder", None)
    if finder is not None and done.embedded < done.imported:
        finder.nudge(who.owner, [])  # embeds what is still pending (no model, or it failed); no entity changed
    if curate and done.imported:
        listener: t.TurnListener = getattr(info.context, "turn_listener", t.NO_LISTENER)
        try:
            listener.on_turn(who.owner, chat_id, False)
        except Exception:  # stored; the catch-up reconciler finds the backlog through the watermark
            log.exception("turn listener failed for an import into chat %s", chat_id)
    return ImportResult(chat_id=chat_id, imported=done.imported, unchanged=done.unchanged, curate=curate)


@strawberry.type
class EpisodeMutation:
    import_conversation: ImportResult = strawberry.mutation(
        resolver=import_conversation, description="Store a conversation's turns as episodes (at most 10,000 per "
                                                  "call): all or nothing, replayable by externalId; found by "
                                                  "words at once and by meaning once embedded. `curate` hands "
                                                  "the new turns to the curator as one backlog")
