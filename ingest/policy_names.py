"""The names the judges' policy documents go by: their kinds, the prefix of their ids and
their titles, and the penalties of the Infraction Procedure Guide. A module of names only:
the lookups take them from here without importing a parser."""

from __future__ import annotations

TOURNAMENT_RULES, INFRACTION_GUIDE = "tournament_rules", "infraction_procedure_guide"
# each kind: the printed title's words, the id prefix, the document's name
KINDS = {
    TOURNAMENT_RULES: ("TOURNAMENT RULES", "mtr", "Magic: The Gathering Tournament Rules"),
    INFRACTION_GUIDE: ("INFRACTION PROCEDURE GUIDE", "ipg", "Magic Infraction Procedure Guide"),
}
PREFIXES = {prefix: kind for kind, (_, prefix, _) in KINDS.items()}
# the penalties the IPG defines (section 1.1), and the one its Missed Trigger prints
PENALTIES = ("No Penalty", "Warning", "Game Loss", "Match Loss", "Disqualification")
# headings each document prints on their own line above a part of a section, which the
# contents do not list (the IPG sets its text right under them)
SUB_HEADINGS = {
    INFRACTION_GUIDE: ("Definition", "Examples", "Philosophy", "Additional Remedy",
                       *PENALTIES[1:]),
    TOURNAMENT_RULES: ("Examples", "Regular", "Competitive", "Professional"),
}
