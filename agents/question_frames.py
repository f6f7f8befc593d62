"""The frames of a question in which a cue word of :mod:`agents.question_types` asks nothing of the
graph: a question of why, of how something does what it does, or of what it does (:func:`of_doing`),
"next" said of a thing in a sequence, not of what to learn (:func:`sequence_next`), "before" said of
an act (:func:`when_acting`), a choice between options (:func:`chooses`), and whether the one asking
can do something (:func:`of_act`).

A cue word asks what comes before or after a concept, or what it is part of, when it governs the
concept in a question of what to learn ("What comes before X?", "What should I learn after X?",
"What builds on X?"). Inside a clause about doing something it says when, or of what: "Why do we
split documents into chunks before making embeddings?" asks a reason, "What does re-ranking do after
the vector search?" what re-ranking does, "How does X tell me if two pieces of text ...?" how X does it.
Why one would use X, and how one thing works (:data:`EXPLAINS`), are open questions before any cue.

A why or how question is also framed by its predicate, and asked in a setting: "How does attention work
in the transformer?" asks how attention works (its predicate "work" frames it and is not what an
answer says), and "in the transformer" says where. The offline reader matches sentences by the
other words (:func:`agents.answer_forms.question_terms`), and reads what explains the thing itself
when no sentence names it in its setting (:func:`agents.answer_spans.best_span`).
The words of a question are read by :data:`WORD` and matched by their stems (:func:`stem`).
"""

from __future__ import annotations

import re
from functools import lru_cache
from itertools import pairwise

import snowballstemmer
from wordfreq import zipf_frequency

__all__ = [
    "EXPLAINS",
    "FRAME",
    "HOW_MANY",
    "WORD",
    "alone",
    "chooses",
    "of_act",
    "of_doing",
    "predicate",
    "root",
    "sequence_next",
    "stem",
    "when_acting",
    "without_predicate",
]

EXPLAINS = re.compile(
    r"^\W*(?:why\b[^?]*\buse|how\s+(?:does|do|did|can|could|would|will|might)\s+(?:(?!\b(?:and|or)\b)[^?])+?\s+"
    r"(?:work|operate))\b",
    re.IGNORECASE,
)
"""Why one would use X, or why X uses Y ("Why use open source models?", "Why does BERT use
attention?"): a reason, which no list of what builds on X gives; or how one thing works, in a
setting or not ("How does backpropagation work in an MLP?"), which no relation does (how two relate
is a cue; "How do A and B work?" asks of two, read as before)."""
_LEARNER = r"(?!(?:i|we|you|one)\b)"
"""Not the one asking: "How do I prepare for X?" and "What do I do after X?" ask what to learn."""
_DOING = re.compile(
    rf"^\W*(?:why\b|how (?:do|does|did|is|are|was|were|can|could|would|should) {_LEARNER}|"
    rf"what (?:do|does|did) {_LEARNER}[^?]*?\bdo\b|"
    r"what(?:'s|’s| is| are) the (?:main |whole )?(?:point|purpose|reason|goal)s? of\b)",  # a why, in words
    re.IGNORECASE,
)
_NEXT_THING = re.compile(
    r"(?<!\bwhat is )(?<!\bwhat's )(?<!\bwhich is )\b(?:the|a|its|their|each) next(?= \w)", re.I
)
""""The next word", "its next step": an ordinal "next" before a noun, unless it is what is asked
("What is the next topic?")."""


def of_doing(question: str) -> bool:
    """Whether a question asks why, how something other than the one asking does what it does, or
    what it does: a cue word inside it is no relation of the graph.

    >>> of_doing("Why do I need a validation set if I have a test set?")
    True
    >>> of_doing("How does cosine similarity tell me if two pieces of text match?")
    True
    >>> of_doing("What does re-ranking do after the vector search step?")
    True
    >>> of_doing("What's the point of splitting documents into chunks before embedding them?")
    True
    >>> of_doing("How do I prepare for transformers?"), of_doing("What do I do after calculus?")
    (False, False)
    >>> of_doing("What should I learn before transformers?"), of_doing("What does attention build on?")
    (False, False)
    """
    return _DOING.match(" ".join(question.split())) is not None


def alone(cues: str) -> re.Pattern[str]:
    """The pattern, in any case, of cue words (alternatives) that stand alone, not joined by a hyphen
    into a compound ("a code-first agent", "first-order methods", "next-token prediction"), whose
    meaning is its own; a compound that is itself a cue is written among the cues ("follow-up").

    >>> first = alone("first|follow-up")
    >>> [bool(first.search(q)) for q in ("Which first?", "a code-first agent", "first-order", "a follow-up")]
    [True, False, False, True]
    """
    return re.compile(rf"(?<!\S-)\b(?:{cues})\b(?!-\S)", re.IGNORECASE)


def sequence_next(question: str) -> str:
    """The question with each "next" that names a thing in a sequence ("predicting the next word")
    blanked out, as long as it was: a cue of what comes after is the "next" of what to learn.

    >>> sequence_next("Is it just predicting the next word?")
    'Is it just predicting the      word?'
    >>> sequence_next("What is the next topic?"), sequence_next("What should I learn next?")
    ('What is the next topic?', 'What should I learn next?')
    """
    return _NEXT_THING.sub(lambda found: found.group(0)[:-4] + " " * 4, question)


_DECIDING = re.compile(
    r"\b(?:before|after|prior to)(?=\s+\w{2,}ing\s+(?:to|whether|if|on|how|what|which)\b)", re.I
)
""""Before" or "after" an act that takes a clause ("before deciding to fine-tune X", "after choosing
whether to use X"): it says when, of the act, not what comes before a concept."""


_OF_THINGS = re.compile(
    r"\b(?:before|after|until|once)(?=\s+(?:they|he|she|it\s+(?:is|was|has|can|could|will|would|does|did|gets))\b)",
    re.I,
)
""""Before" or "after" that opens a clause of time whose subject is a thing, not the one asking
("filter prompts before they reach the model"): it says when the clause's act happens; "before I
start X" still asks what the one asking learns first."""


def when_acting(question: str) -> str:
    """The question with each "before" or "after" said of an act that takes a clause, or that opens a
    clause of time whose subject is not the one asking, blanked out, as long as it was: no cue of what
    to learn before or after the concept the clause names.

    >>> when_acting("What should I figure out before deciding to fine-tune an LLM?")
    'What should I figure out        deciding to fine-tune an LLM?'
    >>> when_acting("Are there libraries that filter prompts before they reach the model?")
    'Are there libraries that filter prompts        they reach the model?'
    >>> when_acting("What should I learn before starting transformers?")
    'What should I learn before starting transformers?'
    >>> when_acting("What should I learn before I start RAG?"), when_acting("What comes after it?")
    ('What should I learn before I start RAG?', 'What comes after it?')
    """
    blank = _DECIDING.sub(lambda found: " " * len(found.group(0)), question)
    return _OF_THINGS.sub(lambda found: " " * len(found.group(0)), blank)


_OBJECT = r"(?:a|an|the|my|your|our|their|its|this|that|these|those|some|one's)"
_CHOOSING = r"\b(?:learn|study|use|pick|choose|select|try|go with|adopt|prefer)\b"
_NO_ORDER = r"(?:(?!\b(?:before|after|prior|then|next|first)\b)[^?,;:])"
_OR_NOT_FIRST = r"\s+or\s+(?![^?,;:]*\b(?:first|earlier|sooner)\b)\S"
_ASKER = r"(?:do|does|did|can|could|should|must|will|would|am|is|are)\s+(?:i|we|one)\b"
_CHOICE = re.compile(
    rf"{_CHOOSING}\s+{_NO_ORDER}+?{_OR_NOT_FIRST}|"
    rf"{_CHOOSING}{_NO_ORDER}*[,:]\s*(?:[^?,;:]+,\s*)*[^?,;:]+?,?{_OR_NOT_FIRST}|"
    rf"^\W*{_ASKER}[^?]*?,?\s+or\s+{_ASKER}|"
    rf"\b(?:vs\.?|versus|or|instead of|rather than)\s+\w{{2,}}ing\s+{_OBJECT}\b|"
    rf"\b\w{{2,}}ing\s+{_OBJECT}\s+[^?,;:]*?\b(?:vs\.?|versus)\s",
    re.I,
)
"""A choice between options: what to learn or use, "A or B" ("Should I learn PyTorch or JAX?"), or
among options listed after the verb ("Which model should I pick, Large, Small or NeMo?"); one act
of the one asking against another ("Do I need X, or can I just Y?"), or one act against another
("using X vs training a custom one": a verb in -ing with its object)."""


def chooses(question: str) -> bool:
    """Whether a question asks to choose between options, not which comes first nor how two
    concepts are related: what the lessons write of each answers it.

    >>> chooses("Should I learn PyTorch or JAX for deep learning?")
    True
    >>> chooses("When would I use a prebuilt model vs training a custom one?")
    True
    >>> chooses("Which Mistral model should I pick, Large, Small or NeMo?")
    True
    >>> chooses("Do I need a vector database for RAG, or can I just store embeddings in a database?")
    True
    >>> chooses("Which should I learn first, A or B?"), chooses("Do I need A for B or C?")
    (False, False)
    >>> chooses("Should I learn PyTorch or JAX first?"), chooses("What should I learn before A or B?")
    (False, False)
    >>> chooses("What is the difference between prompting vs fine-tuning?")
    False
    >>> chooses("Is it better to start with naive Bayes or with Gaussian mixture models?")
    False
    """
    return _CHOICE.search(" ".join(question.split())) is not None


_ACT = re.compile(  # not "you": "Could you give us a curriculum ...?" asks the course, not of an act
    r"^\W*(?:how\s+)?(?:can|could|may|might|shall|should|will|would|must|do|did)\s+(?:i|we|one)\s+"
    r"(?!(?:learn|study|know|understand|master|read|start|begin|skip|take|tackle|go|get|move|need|have|"
    r"complete|finish|review|revise|practi[cs]e|cover|brush|focus|prepare|work|"
    r"really|first|still|then|also|just)\b)\w+",
    re.I,
)


def of_act(question: str) -> bool:
    """Whether a question asks, yes or no, whether the one asking can or should do something other
    than learn ("Can I fine-tune X on a single GPU?"), or how to do it ("How do I run a model with
    X?"), or what to do before or after an act (:func:`when_acting`): of the act, not what to learn
    before or after a concept nor a path between the concepts it names.

    >>> of_act("Can I fine-tune a Llama model with LoRA on a single consumer GPU?")
    True
    >>> of_act("How do I split documents into chunks before creating embeddings?")
    True
    >>> of_act("How do I prepare for transformers?"), of_act("How do I get from A to B?")
    (False, False)
    >>> of_act("What should I figure out before deciding to fine-tune an LLM?")
    True
    >>> of_act("Should I learn calculus?"), of_act("What can I build with GPUs?")
    (False, False)
    >>> of_act("Could you give us a curriculum that takes us from algebra to CNNs?")
    False
    >>> of_act("What should I learn before starting transformers?")
    False
    """
    said = " ".join(question.split())
    return _ACT.match(said) is not None or _DECIDING.search(said) is not None


WORD = re.compile(r"[^\W_]+(?:['’.-][^\W_]+)*")


@lru_cache(maxsize=1 << 16)  # a pure function of the word
def stem(word: str) -> str:
    """The English Snowball stem of a word in lower case, but an agent noun, singular: it names
    another thing than the word it is made from (:func:`_agent_noun`: a tokenizer is no token, an
    optimizer no optimization), and the stemmer would make them one term.

    >>> stem("working"), stem("importance"), stem("tokenizers"), stem("Transformer"), stem("consider")
    ('work', 'import', 'tokenizer', 'transformer', 'consid')
    """
    found = root(word)
    singular = word.lower().removesuffix("s")
    return singular if found != singular and _agent_noun(singular) else found


@lru_cache(maxsize=1 << 16)  # a pure function of the word
def root(word: str) -> str:
    """The English Snowball stem of a word in lower case, an agent noun's too: the word it is made
    from, which names what it works on ("tokenizer" and "tokenization" are both of "token"), for a
    name the graph lacks whose words another concept's name says in another form.

    >>> root("tokenizer"), root("tokenization"), stem("tokenizer")
    ('token', 'token', 'tokenizer')
    """
    # A stemmer of its own: one keeps its word while it works, so it is not shared between threads.
    return str(snowballstemmer.stemmer("english").stemWord(word))


def _agent_noun(word: str) -> bool:
    """Whether a word (or the last part of a hyphenated one) is an agent noun in "-er", one who or
    that does what an English verb says: "-izer" (tokenizer, optimizer), or a verb that English
    writes often, with "-er" added (transformer, adapter), "-r" after its "e" (encoder, scheduler)
    or its last consonant doubled (embedder); not a verb in "-er" itself (consider, register).

    >>> [_agent_noun(w) for w in ("tokenizer", "encoder-decoder", "embedder", "consider", "parameter")]
    [True, True, True, False, False]
    """
    last = word.rsplit("-", 1)[-1]
    if not last.endswith("er") or len(last) < 5:
        return False
    verb = [last[:-2], last[:-1], last[:-3] if last[-3] == last[-4] else ""]
    return last.endswith(("izer", "iser")) or any(v and zipf_frequency(v, "en") >= _VERB_ZIPF for v in verb)


_VERB_ZIPF = 2.5
"""How often English writes the verb an agent noun is made from, at least ("encode" 2.95, "transform"
4.04): a stem that is no word ("consid" of "consider") is written far less often, if ever."""


_FRAME_WORDS = (
    "work function operate happen help matter important useful good need necessary"  # and their forms
)
FRAME = frozenset(stem(word) for word in _FRAME_WORDS.split())
"""The stems of the generic predicates that frame a why or how question ("How does X work?", "Why
is X important?"): they ask for an explanation and are not what one says; by their stems they
would match "working", "importance" and the verb "import"."""
HOW_MANY = re.compile(r"\bhow\s+(?:many|much)\b", re.IGNORECASE)
"""A question's "how many" or "how much": it asks for a number; the quantifier is not what is asked."""

_SETTING = frozenset("in within inside for with on at under during across when".split())
"""The words that open the setting a why or how question asks in ("How does X work in Y?")."""


def predicate(question: str) -> tuple[int, int] | None:
    """Where the generic predicate (:data:`FRAME`) of a why or how question stands when the setting
    it asks in follows it; None when none does ("How does function calling work?": "function" is
    followed by no setting, and "work" ends the question).

    >>> predicate("How does attention work in the transformer?"), predicate("How does X work?")
    ((19, 23), None)
    """
    for word, after in pairwise(WORD.finditer(question)):
        if stem(word.group().lower()) in FRAME and after.group().lower() in _SETTING:
            return word.start(), word.end()
    return None


def without_predicate(question: str) -> str:
    """A why or how question without the predicate its setting follows (:func:`predicate`): it
    frames the question as one at the end does, and would match "the workings" of any sentence.

    >>> without_predicate("Why is dropout important for MLPs?")
    'Why is dropout  for MLPs?'
    >>> without_predicate("How does the loss function work in PyTorch?")
    'How does the loss function  in PyTorch?'
    """
    found = predicate(question)
    return question if found is None else question[: found[0]] + question[found[1] :]
