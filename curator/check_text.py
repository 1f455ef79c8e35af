"""What the model check says to the owner, in English and German: what is wrong, and what to change.

Every sentence names the setting to change, with the value it has now where that helps (never a key).
"""

from __future__ import annotations

from dataclasses import dataclass

from graph.settings import Settings

LOCAL_EN = ("For a local or self-hosted server set WORLDMEM_CURATOR_BASE_URL=http://HOST:PORT/v1 and "
            "WORLDMEM_CURATOR_MODEL_NAME (default llama3.1); for a hosted model set WORLDMEM_CURATOR_MODEL "
            "(e.g. openai:gpt-4o-mini) and the provider's key (OPENAI_API_KEY). Then restart. See "
            "docs/curator-setup.md.")
LOCAL_DE = ("Für einen lokalen oder eigenen Server setze WORLDMEM_CURATOR_BASE_URL=http://HOST:PORT/v1 und "
            "WORLDMEM_CURATOR_MODEL_NAME (Standard llama3.1); für ein gehostetes Modell setze "
            "WORLDMEM_CURATOR_MODEL (z. B. openai:gpt-4o-mini) und den Schlüssel des Anbieters (OPENAI_API_KEY). "
            "Dann neu starten. Siehe docs/curator-setup.md.")


@dataclass(frozen=True)
class Texts:
    problem: dict[str, str]
    fix: dict[str, str]


def texts(kind: str, settings: Settings, label: str | None, detail: str, seconds: float) -> Texts:
    url = settings.curator_base_url or ""
    name = settings.curator_model_name
    key_en = ("WORLDMEM_CURATOR_API_KEY" if url else
              "the provider's key variable (OPENAI_API_KEY for openai:…, ANTHROPIC_API_KEY for anthropic:…)")
    key_de = ("WORLDMEM_CURATOR_API_KEY" if url else
              "die Schlüssel-Variable des Anbieters (OPENAI_API_KEY für openai:…, ANTHROPIC_API_KEY für "
              "anthropic:…)")
    wait = settings.curator_check_timeout_s
    by_kind: dict[str, tuple[str, str, str, str]] = {
        "ok": (f"the model {label} answered a structured call in {seconds:.1f} s",
               f"das Modell {label} hat in {seconds:.1f} s strukturiert geantwortet", "", ""),
        "not_configured": ("no curator model is configured, so turns are stored but not curated",
                           "es ist kein Kurator-Modell eingerichtet: Nachrichten werden gespeichert, aber nicht "
                           "kuratiert", LOCAL_EN, LOCAL_DE),
        "unusable": (f"the curator model {label} cannot be used: {detail}",
                     f"das Kurator-Modell {label} ist nicht nutzbar: {detail}",
                     f"Set {key_en}, or name another model. {LOCAL_EN}",
                     f"Setze {key_de} oder nenne ein anderes Modell. {LOCAL_DE}"),
        "auth": (f"the model server refused the key (401/403) for {label}",
                 f"der Modell-Server hat den Schlüssel für {label} abgelehnt (401/403)",
                 f"Check {key_en}: it is missing, wrong or has no access to this model.",
                 f"Prüfe {key_de}: er fehlt, ist falsch oder hat keinen Zugriff auf dieses Modell."),
        "unreachable": (f"the model server of {label} cannot be reached ({detail})",
                        f"der Modell-Server von {label} ist nicht erreichbar ({detail})",
                        f"Start the server, or correct the host and port in WORLDMEM_CURATOR_BASE_URL (now {url!r}).",
                        f"Starte den Server oder korrigiere Host und Port in WORLDMEM_CURATOR_BASE_URL "
                        f"(jetzt {url!r})."),
        "wrong_path": (f"the server at {url!r} answered 404: no chat-completions API at this path",
                       f"der Server unter {url!r} antwortet 404: unter diesem Pfad gibt es keine "
                       "Chat-Completions-API",
                       "WORLDMEM_CURATOR_BASE_URL must be the API's base URL, which usually ends in /v1 "
                       "(e.g. http://localhost:11434/v1 for Ollama).",
                       "WORLDMEM_CURATOR_BASE_URL muss die Basis-URL der API sein, meist mit /v1 am Ende "
                       "(z. B. http://localhost:11434/v1 für Ollama)."),
        "model_missing": (f"the server does not know the model ({detail})",
                          f"der Server kennt das Modell nicht ({detail})",
                          f"Correct WORLDMEM_CURATOR_MODEL_NAME (now {name!r}) or WORLDMEM_CURATOR_MODEL, or make "
                          "the model available (Ollama: ollama pull NAME).",
                          f"Korrigiere WORLDMEM_CURATOR_MODEL_NAME (jetzt {name!r}) oder WORLDMEM_CURATOR_MODEL, "
                          "oder stelle das Modell bereit (Ollama: ollama pull NAME)."),
        "no_structured_output": (f"the model {label} gave no structured answer in any output mode tried ({detail})",
                                 f"das Modell {label} hat in keiner versuchten Ausgabeart strukturiert "
                                 f"geantwortet ({detail})",
                                 "Set WORLDMEM_CURATOR_OUTPUT_MODE=auto (tries tool, native, prompted) or "
                                 "prompted, or use a model that follows instructions (e.g. llama3.1, qwen2.5).",
                                 "Setze WORLDMEM_CURATOR_OUTPUT_MODE=auto (versucht tool, native, prompted) oder "
                                 "prompted, oder nimm ein Modell, das Anweisungen befolgt (z. B. llama3.1, "
                                 "qwen2.5)."),
        "slow": (f"the model {label} did not answer within {wait:g} s",
                 f"das Modell {label} hat nicht innerhalb von {wait:g} s geantwortet",
                 "Use a smaller or faster model, or raise WORLDMEM_CURATOR_CHECK_TIMEOUT_S and "
                 f"WORLDMEM_CURATOR_TIMEOUT_S (now {settings.curator_timeout_s:g} s per call).",
                 "Nimm ein kleineres oder schnelleres Modell, oder erhöhe WORLDMEM_CURATOR_CHECK_TIMEOUT_S und "
                 f"WORLDMEM_CURATOR_TIMEOUT_S (jetzt {settings.curator_timeout_s:g} s pro Aufruf)."),
        "failed": (f"the model {label} failed: {detail}", f"das Modell {label} ist gescheitert: {detail}",
                   "Check the model server's log; the settings are WORLDMEM_CURATOR_MODEL or "
                   "WORLDMEM_CURATOR_BASE_URL + WORLDMEM_CURATOR_MODEL_NAME.",
                   "Prüfe das Log des Modell-Servers; die Einstellungen sind WORLDMEM_CURATOR_MODEL oder "
                   "WORLDMEM_CURATOR_BASE_URL + WORLDMEM_CURATOR_MODEL_NAME."),
    }
    en, de, fix_en, fix_de = by_kind[kind]
    return Texts(problem={"en": en, "de": de}, fix={"en": fix_en, "de": fix_de} if fix_en else {})
