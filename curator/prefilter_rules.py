"""The prefilter's vocabulary (German and English): compiled patterns, each named by the reason it gives.

Patterns run on lower-cased text with quoted speech removed (see prefilter.py). Kept apart from the logic
so the word lists can grow without touching the decision.
"""

from __future__ import annotations

import re

WEEKDAYS = (r"montag|dienstag|mittwoch|donnerstag|freitag|samstag|sonntag|monday|tuesday|wednesday|thursday"
            r"|friday|saturday|sunday")
MONTHS = (r"januar|februar|märz|april|mai|juni|juli|august|september|oktober|november|dezember|january"
          r"|february|march|may|june|july|october|december")


def _any(*patterns: str) -> re.Pattern[str]:
    return re.compile("|".join(f"(?:{p})" for p in patterns))


# Explicit memory acts: they count in questions too ("kannst du dir merken, dass ...?").
MEMORY = _any(
    r"\bmerk(?:e|t)?\s+(?:dir|euch|ihnen)\b", r"\b(?:dir|euch)\s+(?:\w+\s+){0,3}merken\b", r"\bnotier\w*\b",
    r"\bvergiss\b", r"\bl[öo]sch\w*\b", r"\bkorrigier\w*\b", r"\berinner\w*\s+(?:mich|uns)\b",
    r"\bdenk\s+dran\b", r"\bremember\b", r"\bnote\s+(?:that|down)\b", r"\bjot\b", r"\bkeep\s+in\s+mind\b",
    r"\bforget\b", r"\bdelete\b", r"\bremind\s+(?:me|us)\b", r"\bcorrection\b",
)
# "You need not remember that": the memory act is negated.
MEMORY_NEGATED = _any(
    r"\bnicht\s+(?:\w+\s+){0,2}merken\b", r"\bmusst\s+(?:du\s+)?(?:dir\s+)?(?:das\s+)?nicht\b",
    r"\b(?:don't|do\s+not|dont|no)\s+(?:\w+\s+){0,2}(?:need\s+to\s+)?remember\b",
    r"\bvergiss\s+es\b", r"\bforget\s+it\b",  # a dismissal ("Vergiss es, ist nicht wichtig.")
)
# Change markers: a statement that something holds from now on, always, never, or differently.
CHANGE = _any(
    r"\bab\s+(?:jetzt|sofort|heute|morgen)\b", r"\bvon\s+nun\s+an\b", r"\bfrom\s+now\s+on\b",
    r"\bimmer\b(?!\s+noch)(?!\s+diese)", r"\bnie(?:mals)?\b(?!\s+im\s+leben)", r"\beigentlich\b",
    r"\bstattdessen\b", r"\balways\b(?!\s+these)", r"\bnever\b(?!\s+in\s+a\s+million)", r"\bactually\b", r"\binstead\b",
    r"\b(?:don't|do\s+not)\s+ever\b",
)
CORRECTION = _any(
    r"\bnicht\b[^.!?]{0,40}\bsondern\b", r"\bnot\b[^.!?]{0,40}\bbut\b", r"\bnicht\s+mehr\b",
    r"\bkein\w*\s+\w+\s+mehr\b",
    r"\bnot\b[^.!?]{0,40}\b(?:anymore|any\s+more)\b", r"\bno\s+longer\b", r"n't\b[^.!?]{0,40}\banymore\b",
    r"\bstimmt\s+nicht\b", r"\b(?:war|ist)\s+falsch\b", r"\bthat's\s+(?:wrong|not\s+true)\b",
    r"\bverschoben\b", r"\b(?:moved|rescheduled|postponed)\b.{0,40}\bto\b", r"\bnot\b[^.!?]{0,30},",
)
PREFERENCE = _any(
    r"\bich\s+(?:bevorzuge|mag|hasse|liebe|esse|trinke)\b", r"\bmir\s+ist\s+lieber\b", r"\blieblings\w*",
    r"\bam\s+liebsten\b", r"\bbitte\s+(?:immer|nie|keine?|nicht)\b", r"\bstandardmäßig\b", r"\bregel\s*:",
    r"\bich\s+will\b", r"\bich\s+möchte\b.{0,40}\b(?:keine?|immer|nie|nicht)\b",
    r"\bi\s+(?:prefer|like|love|hate|don't\s+like|do\s+not\s+like|don't\s+want|want)\b",
    r"\bi'd\s+rather\b", r"\bfavou?rite\b", r"\bby\s+default\b", r"\brule\s*:",
    r"\bplease\s+(?:always|never|stop|don't)\b", r"\bstop\s+\w+ing\b",
    r"\b(?:darf|dürfen)\s+nicht\b", r"\bnot\s+allowed\b", r"\bisn't\s+allowed\b", r"\bniemand\b", r"\bnobody\b",
    r"vegetari\w*", r"\bvegan\w*", r"allergi\w*", r"intoleran\w*",
)
ROUTINE = _any(
    r"\bjede[nrs]?\s+\w+", r"\b(?:" + WEEKDAYS.replace("|", "s|").replace("sunday", "sundays") + r"s)\b",
    r"\btäglich\b", r"\bwöchentlich\b", r"\bmonatlich\b", r"\bmorgens\b", r"\babends\b",
    r"\bum\s+\d{1,2}(?:[:.]\d{2})?\s*uhr\b", r"\b\d{1,2}\s*uhr\b", r"\b\d{1,2}:\d{2}\b",
    r"\bevery\s+\w+", r"\bon\s+(?:" + WEEKDAYS + r")s\b", r"\bdaily\b", r"\bweekly\b", r"\bmonthly\b",
    r"\b(?:twice|once|three\s+times)\s+a\s+(?:day|week|month)\b", r"\bzweimal\b", r"\bdreimal\b",
    r"\b\d{1,2}\s*(?:am|pm)\b", r"\b(?:at|um)\s+\d{1,2}\b",
)
TASK = _any(
    r"\bich\s+muss\b", r"\bmuss\s+bis\b", r"\bbis\s+(?:" + WEEKDAYS + r"|zum|ende|morgen)\b", r"\bdeadline\b",
    r"\bfrist\b", r"\bfällig\b", r"\bentschieden\b", r"\bbeschlossen\b", r"\bversprochen\b", r"\bausgemacht\b",
    r"\bvereinbart\b", r"\btermin\b", r"\bbesprechung\b", r"\bmuss\b.{0,30}\braus\b",
    r"\bi\s+(?:still\s+)?(?:need|have)\s+to\b", r"\bby\s+(?:" + WEEKDAYS + r"|tomorrow|the\s+end)\b",
    r"\bdue\b", r"\bdecided\b", r"\bpromised\b", r"\bagreed\b", r"\bappointment\b", r"\bmeeting\b",
    r"\bhas\s+to\b", r"\bmust\b",
)
# People, things and how they relate: copulas after a name or possessive, naming, belonging, work, home.
ENTITY = _any(
    r"\b(?:ist|sind|war|wird)\s+(?:mein|meine|meiner|unser|unsere|der|die|das|ein|eine|sein|seine|ihr|ihre)\b",
    r"\b(?:is|are|was)\s+(?:my|our|the|a|an|his|her|their)\b", r"\bheißt\b", r"\bheißen\b", r"\bhei[ßs]t\b",
    r"\bgehört\b", r"\bbelongs?\s+to\b", r"\bpart\s+of\b", r"\bzur?\s+abteilung\b",
    r"\barbeitet\b", r"\bwohnt\b", r"\bworks?\s+(?:at|for|as)\b", r"\blives?\s+in\b", r"\bis\s+called\b",
    r"\bnamed?\b", r"\bname\s+is\b", r"\bmein(?:e|er|en)?\s+\w+", r"\bunser(?:e|er|en)?\s+\w+",
    r"\bmy\s+\w+", r"\bour\s+\w+", r"\bwir\s+haben\b", r"\bwe\s+(?:have|got|moved|share)\b",
    r"\bich\s+(?:bin|habe|hab|arbeite|wohne|spiele|fahre|laufe|nehme|gieße)\b",
    r"\bi(?:'m|\s+am|'ve|\s+have|\s+work|\s+live|\s+play|\s+run|\s+take|\s+water|\s+quit)\b",
    r"\bwir\s+(?:sind|treffen|teilen|erwarten|fahren)\b", r"\bwe(?:'re|\s+are|'ve|\s+meet)\b",
    r"\b(?:" + MONTHS + r")\b", r"\b(?:am|on\s+the)\s+\d{1,2}(?:\.|st|nd|rd|th)\b",
)
ACKS = frozenset("""
danke dankeschön vielen dank dir ok okay oki passt super jaja ja nein alles klar cool gut perfekt top hm hmm
haha hahaha lol lmao moin hallo hi hey servus tschüss bye ciao gute nacht morgen guten tag abend bis später
sehr weiter so genau stimmt interessant ach verstehe verstanden mach ich kein problem gern geschehen
schade egal na oh nein echt jetzt warum und dann nochmal bitte thanks thank you thx ty great nice got it yes
no sure fine exactly true really why again please good night see you tomorrow later talk welcome you're
will do understood alright all right keep going oh i see too bad whatever maybe not sure sounds weiß nicht
vielleicht das klingt schönes wochenende frohe weihnachten alles gute have a merry christmas go on be back
right schön wie geht's how are doing wunderbar prima klasse cheers wow yay yep nope jep nö
eigentlich actually doch halt schon mal matter doesn't mega awesome thing klar huh hä
""".split())
# Words that open a short remark about the conversation: "Cool, das wusste ich nicht."
ACK_OPENERS = frozenset("""
danke dankeschön ok okay oki cool super ja jaja nein gut sehr perfekt top prima klasse alles mega genau stimmt
thanks thank thx ty yes yeah yep no nope good very great nice perfect awesome alright exactly true sure fine
oh ach hm hmm na nee
""".split())
# Small talk: weather, mood, laughter, remarks about the conversation itself. It silences the weakest
# signals (a copula, an idiomatic "immer"/"always") and the default for plain statements.
SMALL_TALK = _any(
    r"\bwetter\b", r"\bweather\b", r"\bregnet\b", r"\brain(?:s|ing)?\b", r"\bsonnig\b", r"\bsunny\b",
    r"\bmüde\b", r"\btired\b", r"\bbored\b", r"\blangweilig\b", r"\bunmotiviert\b", r"\bunmotivated\b",
    r"\bpuh\b", r"\bugh\b", r"\bha(?:ha)+\b", r"\blol\b", r"\blmao\b", r"😂|🤣|😅",
    r"\bhilfreich\b", r"\bhelpful\b", r"\bverstehe\b", r"\bunderstand\b", r"\bmeinst\b",
    r"\bsieht\s+gut\s+aus\b", r"\blooks\s+good\b", r"\bklingt\b", r"\bsounds\b", r"\bwitz\b", r"\bjoke\b",
    r"\bdas\s+reicht\b", r"\bthat's\s+enough\b", r"\bwas\s+für\s+ein\b", r"\bwhat\s+a\b",
    r"\bdank\w*", r"\bthank\w*", r"\bnie\s+im\s+leben\b", r"\bnever\s+in\s+a\s+million\b",
    # about the conversation itself, and interjections
    r"\blass\s+(?:uns|mich)\b", r"\blet(?:'s|\s+me|\s+us)\b", r"\bverstanden\b", r"\bmisunderst\w*",
    r"\b(?:gute|good)\s+(?:frage|question)\b", r"\bnever\s+mind\b", r"\begal\b", r"^(?:oh\s+)?(?:mein\s+)?gott\b",
    r"^(?:oh\s+)?god\b", r"\bkompliziert\b", r"\bcomplicated\b",
    # reactions: what the speaker thinks of what was just said
    r"\b(?:ich\s+)?finde?\s+(?:das|es)\b", r"\bi\s+find\s+(?:that|it|this)\b", r"\bweiß\s+(?:es|ich)\b",
    r"\b(?:don't|do\s+not)\s+know\b", r"\bnow\s+i\s+know\b", r"\bgut\s+sein\b", r"\blet\s+it\s+be\b",
    r"\bspäter\b", r"\blater\b",
)
# A short self-description still counts: "Ich bin Linkshänder." / "I'm left-handed."
SELF = re.compile(r"^(?:ich\s+bin|i'm|i\s+am)\b")
# Laughter turns "immer"/"always" into an idiom ("das ist ja immer das Gleiche, haha").
LAUGHTER = _any(r"\bha(?:ha)+\b", r"\blol\b", r"\blmao\b", r"😂|🤣|😅")
# Indirect questions and doubt: not an assertion ("ich weiß nicht, ob ...", "I wonder if ...").
UNCERTAIN = _any(r"\bweiß\s+nicht,?\s+ob\b", r"\bnot\s+sure\s+(?:if|whether)\b", r"\bfrage\s+mich\b",
                 r"\bi\s+wonder\b")
# Reported speech: somebody says something in quotes; the quote was blanked out, its frame stays.
REPORTED = _any(r"\b(?:sagt|sagte|ruft|rief|schreibt|says|said|shouts|shouting|writes|wrote)\b[^…]{0,40}…")
QUOTED = re.compile(r"\"[^\"]*\"|„[^“”]*[“”]|“[^”]*”|«[^»]*»|»[^«]*«")
QUESTION_START = re.compile(
    r"^(?:wie|was|wann|wo|wer|wen|wem|wessen|warum|wieso|weshalb|welche\w*|kannst|könntest|hast|ist|sind|gibt"
    r"|soll|sollte|darf|what|when|where|who|whom|why|how|which|can|could|would|will|is|are|do|does|did|should"
    r"|any)\b")
REQUEST_START = re.compile(
    r"^(?:bitte\s+|please\s+)?(?:schreib|fass|rechne|erklär|übersetz|such|find|lies|zeig|sag|mach|gib|stell|formulier"
    r"|write|summari[sz]e|explain|translate|find|search|read|show|give|tell|imagine|suppose|angenommen"
    r"|calculate|list|make|put|rewrite|rephrase|shorten|continue|repeat|recommend|empfiehl|wiederhol"
    r"|erzähl|kürz)\w*\b")
TRANSIENT = _any(r"\bgerade\b", r"\bkurz\b", r"\bgleich\b", r"\bright\s+now\b", r"\bpopping\b",
                 r"\bbe\s+right\s+back\b", r"\bheute\s+ist\b", r"\bis\s+lovely\b")
# Tool names: a consequential verb anywhere in the name (set_state, email.send) makes the call an action.
CONSEQUENTIAL_TOOL = re.compile(
    r"(?:^|[._\-])(?:set|write|send|create|add|update|modify|edit|patch|delete|remove|commit|push|post|book"
    r"|order|place|schedule|lock|unlock|turn|toggle|move|rename|pay|transfer|merge|deploy|start|stop|play"
    r"|cancel|reply|forward|upload|insert|put|save|record|assign|close|open|approve|submit|install|run"
    r"|execute|apply|reset|enable|disable|archive)(?:$|[._\-])")
READ_ONLY_TOOL = re.compile(
    r"(?:^|[._\-])(?:get|list|read|search|find|fetch|lookup|query|show|status|log|recall|describe|view|check"
    r"|count|inspect|explain|browse|peek|preview|stat|diff|state|quote|weather|world|context|neighbors"
    r"|history|effects|explanation|memory|entity)(?:$|[._\-])")
