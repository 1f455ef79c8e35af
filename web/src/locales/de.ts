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
    via: 'über', episodes: 'In Chats gesagt', memories: 'Erinnerungen', chat: 'Chat',
  },
  time: {
    label: 'Zeitpunkt', now: 'Jetzt', valid: 'Was galt am …', system: 'Was wusste der Agent am …',
    expert: 'Systemzeit (Expertenmodus)', back: '− 7 Tage', forward: '+ 7 Tage', showing: 'Ansicht für',
    current: 'aktuell',
  },
  entity: {
    facts: 'Fakten', relationships: 'Beziehungen', outgoing: 'Ausgehend', incoming: 'Eingehend',
    aliases: 'Aliase', timeline: 'Ereignisse', noFacts: 'Zu diesem Zeitpunkt ist nichts bekannt.',
    noRelationships: 'Keine Beziehungen.', noEvents: 'Keine Ereignisse.', notFound: 'Unbekannte Entität.',
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
