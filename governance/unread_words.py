"""The words a question asks about that no lesson mentions (:func:`unread_said`): "Kubernetes" in
"How do I deploy a model to Kubernetes?", "Slurm" in "How do I run a GPU cluster with Slurm?", "LoRA"
in "How do I use LoRA to fine-tune a model?"; a lesson sentence that shares only the question's other
words does not answer it."""

from __future__ import annotations

import re

from wordfreq import zipf_frequency

from agents.answer_forms import WORD, content_terms, question_terms
from agents.offline.terms import ANCHOR_ZIPF
from governance.excerpts import graph_lexicon, lesson_terms
from magg_kg.graph_index import GraphIndex

__all__ = ["unread_said"]

_WITH = re.compile(
    r"\b(?:with|using|via)\s+(?P<object>(?:[\w.+#-]+\s*){1,4}?)\s*"
    r"(?:\b(?:(?:in order |so as )?to|so that)\s+[^,;]*?)?[?.!]*\s*$",
    re.IGNORECASE,
)
"""What a question asks to do something with, closing it, or before what for: "How do I run a GPU
cluster with Slurm?", "How do I train a model with Horovod to use all my GPUs?"."""
_USED = re.compile(
    r"\b(?:i|you|we|to)\s+use\s+(?:[\w.+#-]+['’]s?\s+)*(?P<object>(?:[\w.+#'-]+\s*){1,3}?)\s*"
    r"(?:\b(?:to|for|in|on|with|instead|rather|as|over)\b|[?.!]*\s*$)",
    re.IGNORECASE,
)
"""What the one asking means to use, up to the word that says what for: "LoRA" in "How do I use
LoRA to fine-tune a model?" (the same question as "How do I fine-tune a model with LoRA?"). An owner
named before it is not what is used ("Claude" in "Can I use Anthropic's Claude instead?")."""


def unread_said(graph: GraphIndex, question: str, naming: bool = False) -> str:
    """What the graph does not cover of a question that names no concept, when some of the words it
    asks about are in no lesson and in no concept's name ("How do I deploy a model to Kubernetes?"):
    those words are what it asks about, and a sentence that shares only its other words ("deploy",
    "model") does not answer it. Words written together are named together ("quantum
    chromodynamics"). "" when every word it asks about is read somewhere (or the graph holds no
    lesson to read: then nothing can be said of its words), and when each word unread is an
    everyday one (Zipf :data:`agents.offline.terms.ANCHOR_ZIPF` or more: "How can I make prompts
    better nowadays?" asks about prompts, not about "nowadays"). Of a question that names a concept
    (``naming``), only what it closes by asking to do it with counts (:data:`_WITH`), or what it
    asks to use (:data:`_USED`): "How do I run a GPU cluster with Slurm?" asks about Slurm, which a
    lesson on GPU clusters does not answer (what the lessons say of the concepts it names is still
    read, after the gap is said)."""
    if naming:
        used = [m.group("object") for m in (_WITH.search(question), _USED.search(question)) if m]
        if not used:
            return ""
        question = " ; ".join(used)
    read = lesson_terms(graph)
    if not read:
        return ""
    named = graph.kept(
        "name terms", lambda: frozenset(t for key in graph_lexicon(graph) for t in content_terms(key))
    )
    asked = set(question_terms(question))
    unread: list[str] = []
    joined_to = -1  # where the last unread word ends: the next one right after it is one name with it
    for match in WORD.finditer(question):
        word, terms = match.group(0), content_terms(match.group(0))
        if not terms or any(c.isdigit() for c in word) or not set(terms) <= asked:
            continue
        if any(t in read or t in named for t in terms):
            continue
        if unread and not question[joined_to : match.start()].strip():
            unread[-1] = f"{unread[-1]} {word}"
        else:
            unread.append(word)
        joined_to = match.end()
    if not any(zipf_frequency(word, "en") < ANCHOR_ZIPF for name in unread for word in name.split()):
        return ""  # an everyday word ("nowadays", "France") names no subject a course would teach
    quoted = [f'"{words}"' for words in dict.fromkeys(unread)]
    listed = quoted[0] if len(quoted) == 1 else f"{', '.join(quoted[:-1])} or {quoted[-1]}"
    return f"The graph does not cover {listed}: no lesson mentions {'it' if len(quoted) == 1 else 'them'}."
