"""The texts of terminal play, in English and Russian.

``tui/texts.toml`` holds them; they go into the shared catalogue of
:mod:`mushka.i18n` under ``tui.`` when this module is imported.  The engine's
own sentences (events, errors with their rule ids) come from the core and are
not repeated here.
"""

from __future__ import annotations

from mushka.i18n import add_text_file

add_text_file("mushka.tui", "texts.toml")
