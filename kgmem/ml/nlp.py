"""spaCy's English pipeline (en_core_web_sm 3.8), loaded by data path from an installed wheel.

``Nlp`` loads the pipeline lazily, once. ``entities`` maps spaCy's NER labels onto kgmem's entity
types and drops the numeric and temporal labels (dates and amounts are values, not entities); it
runs only the recogniser and what it listens to (en_core_web_sm's ``ner`` has a tok2vec of its
own), so a recall query does not pay for the tagger, parser and lemmatizer it never reads.
Loading by data path (not through the package's ``load()``) runs no code of the wheel itself.
"""

from __future__ import annotations

import threading
from typing import Any

from kgmem.errors import ModelUnavailable
from kgmem.ml.packages import find_model_dir, package_dir
from kgmem.records import EntityMention
from kgmem.settings import Settings

# spaCy OntoNotes labels → kgmem entity types; labels not listed are not entities.
LABEL_TO_TYPE = {
    "PERSON": "person",
    "ORG": "organization",
    "GPE": "location",
    "LOC": "location",
    "FAC": "location",
    "PRODUCT": "product",
    "EVENT": "event",
    "WORK_OF_ART": "concept",
    "LAW": "concept",
    "LANGUAGE": "concept",
    "NORP": "concept",
}


class Nlp:
    """Lazy, shared spaCy pipeline."""

    def __init__(self, settings: Settings) -> None:
        self._package = settings.spacy_package
        self._nlp: Any = None
        self._not_ner: list[str] = []
        self._lock = threading.Lock()

    @property
    def loaded(self) -> bool:
        return self._nlp is not None

    def pipeline(self) -> Any:
        with self._lock:
            if self._nlp is None:
                root = package_dir(self._package, self._package.replace("_", "-"))
                path = find_model_dir(root, "config.cfg")
                try:
                    import spacy
                except ImportError as exc:
                    raise ModelUnavailable("spaCy is not installed: pip install spacy") from exc
                nlp = spacy.load(path)
                self._not_ner = _not_needed_for_ner(nlp)
                self._nlp = nlp
            return self._nlp

    def entities(self, text: str) -> list[EntityMention]:
        doc = self.pipeline()(text, disable=self._not_ner)
        return mentions_of(doc)


def _not_needed_for_ner(nlp: Any) -> list[str]:
    """The components whose output ``ner`` does not read: all but ``ner`` and any shared
    tok2vec it listens to (none in en_core_web_sm, whose ``ner`` embeds the text itself)."""
    keep = {"ner"}
    for name, pipe in nlp.pipeline:
        if "ner" in (getattr(pipe, "listening_components", None) or ()):
            keep.add(name)
    return [name for name in nlp.pipe_names if name not in keep]


def mentions_of(doc: Any) -> list[EntityMention]:
    """Entity mentions of a parsed doc, deduplicated by (name, type), in order."""
    seen: set[tuple[str, str]] = set()
    out: list[EntityMention] = []
    for ent in doc.ents:
        etype = LABEL_TO_TYPE.get(ent.label_)
        name = ent.text.strip()
        if etype is None or not name:
            continue
        key = (name.lower(), etype)
        if key not in seen:
            seen.add(key)
            out.append(EntityMention(name=name, type=etype, start=ent.start_char, end=ent.end_char))
    return out
