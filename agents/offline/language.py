"""Which language a question is written in, as far as the offline reader needs to know.

The offline roles read English: the question classifier and the span reader learned English
wordings, and a question in another language is read word by word as if it were English ("¿Cuál
es el camino desde el álgebra lineal hasta los transformers?" answered "NLP"). A reader that
cannot read a question should say so, not guess. :func:`question_language` tells such a question by
what every language has most of, its function words (articles, pronouns, prepositions,
conjunctions, auxiliaries), the classic way to identify the language of a short text:

- a word in letters of another script than the Latin alphabet (:func:`agents.offline.scripts.foreign_script`);
- or more function words of German, French, Spanish, Italian, Portuguese or Dutch than of English,
  and at least two of them. Words those languages share with English ("die", "was", "in", "a")
  count as English; concept names the graph knows ("Transformers") are left out first, so a
  name in another language ("La Dolce Vita") among English words keeps the question English.

A question with no function word at all ("Explain eigenvalues, eigenvectors, Jordan normal form")
is English: nothing says otherwise.

A lesson is read the same way, a paragraph (a line of a list or a table) at a time
(:func:`prose_language`): most of its prose reads as a language when the paragraphs that read as it
hold more than half the letters of the paragraphs that read as any language, English included. A
glossary in Chinese or a quote in French under English prose keeps the lesson English.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable

from agents.offline.scripts import foreign_script, letter_script
from agents.phrases import FUNCTION_WORDS

__all__ = ["LANGUAGES", "prose_language", "question_language"]

_WORD = re.compile(r"[^\W\d_]+")

LANGUAGES: dict[str, frozenset[str]] = {
    "German": frozenset(
        "der das dem den des ein eine einen einem einer eines und ist sind nicht kein keine mit wie "
        "warum wann wo welche welcher welches ich du wir ihr sie es auf für von zu im vom zum zur auch "
        "oder aber muss müssen kann können soll sollte werden wird zwischen vor nach bei über unter "
        "durch sich noch nur schon dass wenn weil zuerst".split()
    ),
    "French": frozenset(
        "le la les des du un une et est sont que qui quoi quel quelle quels quelles dans pour avec sur "
        "pas ne ce cette ces au aux entre comment pourquoi quand où je tu il elle nous vous ils elles "
        "mon ma mes leur leurs avant après faut dois peut qu l d c".split()
    ),
    "Spanish": frozenset(
        "el la los las un una unos unas y es son que qué cuál cuáles cómo dónde cuándo por para con "
        "sin del al en desde hasta entre sobre pero más muy se su sus lo le les yo tú él ella "
        "debo hay está están antes después primero".split()
    ),
    "Italian": frozenset(
        "il lo la gli le un uno una e è sono che chi cosa come dove quando perché quale quali di del "
        "della dei delle da dal con per tra fra su non prima dopo devo".split()
    ),
    "Portuguese": frozenset(
        "o os as um uma e é são que qual quais como onde quando por para com sem do da dos das no na "
        "nos nas em entre antes depois não preciso devo primeiro".split()
    ),
    "Dutch": frozenset(
        "de het een en is zijn van voor met op te dat wat hoe waarom wanneer welke ik je we niet ook "
        "maar bij naar om moet kan tussen eerst".split()
    ),
}
"""Frequent function words of each language other than English: closed classes, not topics."""

_ENGLISH_ALSO = frozenset(
    "a i in is on as be do so no me he we us it at to or an die was will man son also come per via "
    "dove con pour lie sale fine done".split()
)
"""Words of those lists that are English words too: they are read as English."""


def question_language(question: str, names: Iterable[str] = ()) -> str:
    """The language ``question`` reads as when it is not English, or "" for English (or no telling).

    ``names``: the concept names it mentions, left out before counting.

    >>> question_language("¿Cuál es el camino desde el álgebra lineal hasta los transformers?")
    'Spanish'
    >>> question_language("Was muss ich vor Transformers lernen?", ["Transformers"])
    'German'
    >>> question_language("反向传播和梯度下降有什么关系?")
    'CJK script'
    >>> question_language("Who directed La Dolce Vita, and when?"), question_language("dropout?")
    ('', '')
    """
    script = foreign_script(question)
    if script:
        return _script_name(script)
    text = question.lower()
    for name in sorted({n.lower() for n in names if n.strip()}, key=len, reverse=True):
        text = text.replace(name, " ")
    language = _by_words(text)
    return "" if language == _ENGLISH else language


def prose_language(prose: str) -> str:
    """The language most of a lesson's ``prose`` (its prose view) reads as when that is not English,
    or "" (module docstring): each paragraph reads as the script of its letters when most of them
    are of a script the offline roles cannot read, else by its function words, or as nothing when
    it has too few of them (a heading, a list of terms).

    >>> prose_language("El modelo aprende de los datos.\\n\\nLa regresión es un modelo.")
    'Spanish'
    >>> english = "Attention lets the model look at all of the input at once, and it is fast."
    >>> prose_language(f"{english}\\n\\n| 注意力 | attention |\\n\\nLe modèle est la clé de la réussite.")
    ''
    >>> prose_language("Как работает обратное распространение ошибки?"), prose_language("")
    ('Cyrillic script', '')
    """
    letters: Counter[str] = Counter()
    for paragraph in _PARAGRAPH.findall(prose):
        count = sum(1 for char in paragraph if char.isalpha())
        others = sum(1 for char in paragraph if char.isalpha() and letter_script(char) not in _READ)
        script = foreign_script(paragraph) if 2 * others > count else ""
        language = _script_name(script) if script else _by_words(paragraph.lower())
        if language:
            letters[language] += count
        # a paragraph that reads as no language weighs on no side
    if not letters:
        return ""
    language, most = letters.most_common(1)[0]
    return language if language != _ENGLISH and 2 * most > letters.total() else ""


_ENGLISH = "English"
_READ = frozenset({"LATIN", "GREEK"})
_PARAGRAPH = re.compile(r"[^\n]+(?:\n(?![ \t]*(?:\n|[-*+|#]|\d+[.)]))[^\n]+)*")
"""A paragraph: lines up to a blank line, a list item, a table row or a heading."""


def _script_name(script: str) -> str:
    return f"{script.upper() if len(script) <= 3 else script} script"


def _by_words(text: str) -> str:
    """The language lower-case ``text`` reads as by its function words: another language when it
    has at least two of that language's and more than of English; else English when it has any of
    English's, else ""."""
    words = _WORD.findall(text)
    english = sum(1 for word in words if word in FUNCTION_WORDS or word in _ENGLISH_ALSO)
    counts = {
        language: sum(1 for word in words if word in listed and word not in _ENGLISH_ALSO)
        for language, listed in LANGUAGES.items()
    }
    language, most = max(counts.items(), key=lambda item: item[1])
    return language if most >= 2 and most > english else _ENGLISH if english else ""
