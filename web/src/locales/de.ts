// German (default). Every key here must exist in en.ts and the other way round (i18n.spec.ts).
export default {
  app: { title: 'Gedächtnis', skip: 'Zum Inhalt springen', language: 'Sprache', logout: 'Abmelden' },
  nav: { search: 'Suchen', explore: 'Gesamtbild', contacts: 'Kontakte', console: 'Cypher-Konsole', main: 'Hauptnavigation' },
  contacts: {
    heading: 'Kontakte', label: 'Teil eines Namens', submit: 'Filtern', none: 'Keine Kontakte.', noIdentities: 'keine Kennungen',
    since: 'seit', until: 'bis',
  },
  login: {
    heading: 'Anmelden', token: 'Owner-Token', hint: 'Token erzeugen: worldmem token create --owner demo',
    submit: 'Anmelden', invalid: 'Dieses Token wird nicht akzeptiert.', needed: 'Bitte ein Token einfügen.',
  },
  search: {
    heading: 'Was weiß das Gedächtnis?', label: 'Name, Alias oder Begriff', submit: 'Suchen',
    entities: 'Entitäten', facts: 'Fakten', none: 'Nichts gefunden.', ambiguous: 'Mehrdeutig: bitte wählen.',
    via: 'gefunden über {how}', episodes: 'In Chats gesagt', memories: 'Erinnerungen', chat: 'Chat',
  },
  via: {
    ref: 'die Referenz', name: 'den Namen', alias: 'einen Alias', nameInQuery: 'den Namen in der Anfrage',
    aliasInQuery: 'einen Alias in der Anfrage', similarName: 'einen ähnlichen Namen', similarAlias: 'einen ähnlichen Alias',
    owner: 'den Owner', text: 'den Text', finder: 'die Volltext- und Vektorsuche', other: 'eine andere Übereinstimmung',
  },
  welcome: {
    summary: 'Im Gedächtnis: {entities} Entitäten, {edges} Beziehungen.', owner: 'Du bist',
    pending: 'Nichts wartet auf Prüfung. | 1 Eintrag wartet auf Prüfung. | {n} Einträge warten auf Prüfung.',
    entities: 'Am stärksten vernetzt', degree: 'keine Beziehung | 1 Beziehung | {n} Beziehungen',
    examples: 'Zum Ausprobieren', empty: 'Das Gedächtnis ist noch leer: nimm ein Gespräch auf (recordTurn) oder lade die Demo (worldmem demo).',
  },
  time: {
    label: 'Zeitpunkt', now: 'Jetzt', valid: 'Was galt am …', system: 'Was wusste der Agent am …',
    expert: 'Systemzeit (Expertenmodus)', back: '− 7 Tage', forward: '+ 7 Tage', showing: 'Ansicht für',
    current: 'aktuell', format: 'TT.MM.JJJJ HH:MM',
    invalid: 'Kein gültiger Zeitpunkt: bitte als TT.MM.JJJJ HH:MM eingeben (z. B. 06.12.2026 14:30).',
  },
  entity: {
    facts: 'Fakten', relationships: 'Beziehungen', outgoing: 'Ausgehend', incoming: 'Eingehend',
    aliases: 'Aliase', timeline: 'Ereignisse', noFacts: 'Zu diesem Zeitpunkt ist nichts bekannt.',
    noRelationships: 'Keine Beziehungen.', noEvents: 'Keine Ereignisse.', notFound: 'Unbekannte Entität.',
    unknown: 'Keine Entität „{ref}“.', recordedLater: 'Stand {at} gab es keine Entität „{ref}“: Sie wurde erst am {first} erfasst.',
    description: 'Beschreibung', didYouMean: 'Meintest du:', searchInstead: 'Stattdessen danach suchen',
    graph: 'Nachbarschaft', provenance: 'Herkunft', hideProvenance: 'Herkunft ausblenden',
    trace: 'Kausalkette', policy: 'Richtlinie', hypothesis: 'Hypothese', scope: 'Geltungsbereich',
    global: 'global', since: 'seit', until: 'bis', recorded: 'erfasst', evidence: 'Beleg', saidIn: 'gesagt im Chat', reason: 'Grund',
    supersedes: 'Ersetzt', supersededBy: 'Ersetzt durch', chain: 'Ersetzungskette', causedBy: 'verursacht durch',
    history: 'Verlauf dieses Prädikats', confidence: 'Zuversicht', loading: 'Lädt …', updated: 'Gedächtnis aktualisiert: {committed} übernommen, {pending} zur Prüfung',
    retention: 'Dieser Zeitpunkt liegt vor der Aufbewahrungsgrenze ({edge}): ältere beobachtete Werte wurden zu Monatszusammenfassungen verdichtet und gelöscht. An ihrer Stelle stehen:',
  },
  source: { user: 'vom Nutzer', agent: 'vom Agenten', integration: 'von einer Integration' },
  lifecycle: { active: 'aktiv', pending: 'wartet auf Prüfung', closed: 'abgelöst' },
  graph: {
    deeper: 'Ab Tiefe 2 folgt die Nachbarschaft nur Prädikaten, für die Schlussfolgerungen aktiviert sind, und den oben gewählten; Tiefe 1 zeigt alle.',
    heading: 'Nachbarschaft von {name}', depth: 'Tiefe', direction: 'Richtung', predicates: 'Prädikate',
    all: 'alle', out: 'ausgehend', in: 'eingehend', both: 'beide', truncated: 'Abgeschnitten: zu viele Kanten.',
    list: 'Als Liste', empty: 'Keine Kanten.', apply: 'Anwenden',
  },
  trace: {
    heading: 'Kausalkette', intent: 'Absicht', outcome: 'Ergebnis', root: 'Ursprung', inferred: 'vermutet',
    effects: 'Wirkungen', run: 'Lauf', causes: 'Ursachen', empty: 'Nichts gefunden.', hypothesis: 'Ein Glied ist nur vermutet.',
    fulfilled: 'erfüllt', partial: 'teilweise', unfulfilled: 'nicht erfüllt', unknown: 'nicht beobachtbar',
  },
  explore: {
    heading: 'Gesamtbild', limit: 'Höchstens Knoten', kinds: 'Arten', predicates: 'Prädikate', apply: 'Anzeigen',
    shown: '{shown} von {total} Entitäten, {edges} Kanten', community: 'Gruppe', entity: 'Entität', rank: 'Rang', all: 'alle',
    truncated: 'Nur ein Teil der Beziehungen wurde gewertet.',
  },
  console: {
    heading: 'Cypher-Konsole', query: 'Abfrage (nur lesend)', run: 'Ausführen (Strg+Enter)',
    rows: '{n} Zeilen', truncated: 'Gekürzt auf das Zeilenlimit.', error: 'Fehler',
  },
  error: { generic: 'Etwas ist schiefgegangen: {message}', offline: 'Der Server antwortet nicht.' },
}
