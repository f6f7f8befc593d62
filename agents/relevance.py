"""Whether a sentence the offline reader found shares enough of the question to answer it.

The reader (:mod:`agents.answer_spans`) scores candidates by the question's words they share, and
the best one won however little it shared: one word was enough. "What is the capital of France?"
was answered "Italy" from a sentence listing "Rome" "Italy" "France" "Paris"; "Who wrote this
book?" "Leon Bottou" from a sentence on who wrote some code. A question that asks for a name, a
date or a number is now answered by a sentence that, with its excerpt's title, shares at least two
of the question's content words (all of them when it has fewer), what is asked about and what is
asked of it; or that names the concept asked about whole; or that a sentence of another excerpt
leads to (a chain of two hops, where that sentence shares the rest). Definitions, explanations and
yes/no questions are read by rules of their own, which already require what they need.

Of the sentences that may answer a why or how question, those that name more of the concepts it
names come first (:func:`explains_first`), so that a rarer word of the question said of something
else ("need" in "we need more data manipulations") does not outweigh them; a name is said when its
words are in a row, in the sentence or in its excerpt's title (:func:`names_said`).

A sentence answers an open question only when it bears on what the question is about
(:func:`on_topic`): it names a concept the question names, or says one of its topic words, those
rarer in English than an everyday word ("quantization", "dataset", "saliency"). Sharing only
everyday words ("makes", "answers", "class") is no answer: "What is model quantization and does it
make the answers noticeably worse?" is not answered by "... not only makes the user feel understood,
but it also helps their pursuit of finding specific answers ...".
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence, Set

from wordfreq import zipf_frequency

from agents.announcements import describes, elsewhere
from agents.answer_forms import WORD, content_terms, expected_kind, question_terms
from agents.lead_ins import dangles, leads_in
from agents.mechanisms import recounts
from agents.offline.acronyms import spells
from agents.offline.terms import ANCHOR_ZIPF
from agents.passages import points_elsewhere, series
from agents.predicates import CLAUSE_END
from agents.short_answers import asks_short

__all__ = [
    "COMMONEST_ZIPF",
    "asked_of",
    "bears_on",
    "explains_first",
    "in_a_row",
    "named_as",
    "names_said",
    "on_topic",
    "shares_enough",
    "topic_terms",
    "versioned",
]


def shares_enough(asked: Set[str], said: Set[str], subjects: Iterable[Set[str]] = ()) -> bool:
    """Whether the terms ``said`` hold at least two of the question's terms ``asked`` (all of them
    when it has fewer), or the whole name of a concept the question is about (``subjects``, each
    the terms of a name): "When was the transformer introduced?" is answered by "The Transformer
    was proposed in 2017", which says "introduced" in other words.

    >>> shares_enough({"capit", "franc"}, {"rome", "itali", "franc"}), shares_enough({"dropout"}, {"dropout"})
    (False, True)
    >>> shares_enough({"transform", "introduc"}, {"transform", "propos", "2017"}, [{"transform"}])
    True
    """
    named = any(subject and subject <= said for subject in subjects)
    return named or len(asked & said) >= min(2, len(asked))


def bears_on(question: str, sentence: str, title: str = "") -> bool:
    """Whether ``sentence`` (of an excerpt titled ``title``) shares enough of the question's words.

    >>> bears_on("Who wrote this book?", "Yann LeCun and Leon Bottou wrote the code in the 1990s.")
    False
    >>> bears_on("Who invented the perceptron?", "The perceptron was invented by Frank Rosenblatt.")
    True
    """
    said = set(content_terms(sentence)) | set(content_terms(title))
    return shares_enough(versioned(question_terms(question)), versioned(said))


def versioned(terms: Iterable[str]) -> set[str]:
    """The terms, and of each hyphenated name with a version and a size or kind after it, its name
    and version ("phi-3" of "phi-3-mini"): a question on one model of a family asks what a sentence
    on another of it ("Phi-3-small has 7B parameters") may say beside.

    >>> sorted(versioned(["phi-3-mini", "llama-2", "fine-tun"]))
    ['fine-tun', 'llama-2', 'phi-3', 'phi-3-mini']
    """
    found = set(terms)
    for term in list(found):
        parts = term.split("-")
        at = next((n for n, part in enumerate(parts) if n and any(ch.isdigit() for ch in part)), 0)
        if 0 < at < len(parts) - 1:
            found.add("-".join(parts[: at + 1]))
    return found


def topic_terms(question: str) -> frozenset[str]:
    """The terms of the question's topic words: those rarer in English than an everyday word (Zipf
    below :data:`agents.offline.terms.ANCHOR_ZIPF`), numbers aside; none when every word it asks
    about is an everyday one ("How do I pick a learning rate?").

    >>> sorted(topic_terms("What is model quantization and does it make the answers noticeably worse?"))
    ['notic', 'quantiz']
    >>> topic_terms("How do I pick a learning rate?")
    frozenset()
    """
    asked = set(question_terms(question))
    found: set[str] = set()
    for match in WORD.finditer(question):
        word = re.sub(r"['’]s?$", "", match.group(0).lower())
        if not word.isdigit() and zipf_frequency(word, "en") < ANCHOR_ZIPF:
            found.update(term for term in content_terms(word) if term in asked)
    return frozenset(found)


def on_topic(
    question: str, sentence: str, title: str = "", names: Sequence[str] = (), required: str = ""
) -> bool:
    """Whether a sentence (of an excerpt titled ``title``) bears on what an open question (a why,
    how or yes/no question, or a what question that asks a description) is about:
    it names one of ``names`` whole (the concepts the question names, :func:`names_said`), and for a
    question asked yes or no says its rarest topic word when the names do not (what it asks of them,
    :func:`asked_of`: "Is the loss function of a neural network convex?" is not answered by a
    sentence that says "any loss function" of weight decay; "When should I pick fine-tuning over RAG
    for my chatbot?" may be without "chatbot"), or it says one of the question's topic words
    (:func:`topic_terms`), itself or in its title (a part of a compound counts: "Multi-Head
    Attention" says "heads"; "LLM" says "LLMs"). A question with no topic word is answered by a
    sentence that says two of its words (all when it has fewer) outside a clause that opens it to set
    the scene (:data:`_SETTING`). What goes along with what a question asks of ("along with my
    prompt", :data:`_ALONG_WITH`) is no topic of it. A question about a term
    the graph lacks (``required``: "LoRA" in "can I use LoRA on a single GPU?") is answered only by
    a sentence that says it whole and one more of the question's words, itself or in its title,
    whatever it asks: one that does not say the term speaks of something else, one that says
    nothing more only names it ("A token is a chunk of text." does not say why tokens matter for
    pricing).

    >>> question = "What is model quantization and does it make the answers noticeably worse?"
    >>> on_topic(question, "Features like profiles make the user find specific answers faster.")
    False
    >>> on_topic(question, "Quantization stores the weights in fewer bits.")
    True
    >>> on_topic("Why do LLMs make stuff up?", "An LLM predicts likely words."), on_topic("How?", "Any.")
    (True, True)
    >>> convex = "Is the loss function of a neural network convex?"
    >>> on_topic(convex, "Weight decay is used in neural network optimization with any loss function.",
    ...          names=["loss functions"])
    False
    >>> on_topic(convex, "A convex loss function has one minimum.", names=["loss functions"])
    True
    >>> on_topic("Who is the mayor of the city where Acme is?", "Tom Hale is the mayor of Springfield.")
    True
    >>> asked = "can I use LoRA to fine-tune a model on a single GPU?"
    >>> on_topic(asked, "Fine-tuning a model requires GPU acceleration.", required="LoRA")
    False
    >>> on_topic(asked, "It fine-tunes a model on one GPU.", "LoRA", required="LoRA")
    True
    >>> on_topic("why does token matter for pricing?", "A token is a chunk of text.", required="token")
    False
    """
    if required:
        rest = set(question_terms(question)) - set(content_terms(required))
        read = {*content_terms(sentence), *content_terms(title)}
        return bool(names_said([required], sentence, title)) and (not rest or not rest.isdisjoint(read))
    kind = expected_kind(question)
    if kind not in ("explanation", "yesno", "name") or (kind == "name" and asks_short(question)):
        return True  # a name, date or number asked: :func:`shares_enough` and its reading decide
    question = _ALONG_WITH.sub("", question)  # "send a picture along with my prompt" sends a picture
    topic = {term.removesuffix("s") for term in topic_terms(question)}  # "LLMs" says "LLM" too
    if names_said(names, sentence, title):  # asked yes or no: and what is asked of them, its rarest word
        rest = {term.removesuffix("s") for term in asked_of(question, names)} if kind == "yesno" else set()
        text = f"{title} {sentence}"
        return not rest or not rest.isdisjoint(term.removesuffix("s") for term in content_terms(text))
    if not topic:  # everyday words only: two of them said, not in a clause that sets the scene
        said = content_terms(f"{title} {_SETTING.sub('', sentence)}".replace("-", " "))
        return shares_enough(set(question_terms(question)), set(said))
    text = f"{title} {sentence}"
    said = [*content_terms(text), *content_terms(text.replace("-", " "))]
    return not topic.isdisjoint(term.removesuffix("s") for term in said)


_INITIALISM = re.compile(r"\b(?P<letters>[A-Z][A-Za-z]*[A-Z])s?\b")
"""A name written in its initials ("LLM", "LLMs", "RoBERTa"): the concept whose name it spells."""


def named_as(question: str, names: Sequence[str]) -> list[str]:
    """``names`` and the initials that the question writes for one of them ("LLM" for "large language
    models"), singular and plural: a sentence that says them names the concept too.

    >>> named_as("Is a decision tree a CNN?", ["convolutional neural network"])
    ['convolutional neural network', 'CNN', 'CNNs']
    """
    written = [
        m["letters"] for m in _INITIALISM.finditer(question) if any(spells(m["letters"], n) for n in names)
    ]
    return list(dict.fromkeys([*names, *(form for letters in written for form in (letters, f"{letters}s"))]))


def asked_of(question: str, names: Sequence[str]) -> frozenset[str]:
    """The terms of the question's rarest topic word in English (:func:`topic_terms`), what it asks
    of the concepts it names (``names``): of its words after the first it names, in its clause, as
    English asks a property of a subject ("Is the loss function ... convex?"; not "Goodfellow" in
    "Is dropout applied in training only, as Goodfellow says?"); none when their names say it.

    >>> sorted(asked_of("Is the loss function of a neural network convex?", ["loss functions"]))
    ['convex']
    >>> asked_of("Is weight decay a regularizer?", ["regularizer"])
    frozenset()
    >>> asked_of("Is fine-tuning worth it or is prompt engineering enough?", ["prompt engineering"])
    frozenset()
    >>> asked_of("Is dropout applied in training only, as Goodfellow says?", ["dropout"])
    frozenset()
    >>> asked_of("Is a decision tree a CNN?", ["convolutional neural network"])  # its initials name it
    frozenset()
    """
    topic, found = topic_terms(question), dict[frozenset[str], float]()
    spelled = [
        r"\W+".join(re.escape(w[:-1]) + "s?" if w.endswith("s") else re.escape(w) for w in words)
        for name in names
        if (words := WORD.findall(name))
    ]
    at = [m.end() for name in spelled if (m := re.search(rf"\b{name}\b", question, re.IGNORECASE))]
    at += [m.end() for m in _INITIALISM.finditer(question) if any(spells(m["letters"], n) for n in names)]
    start = min(at, default=0)
    # An aside after it ("as X says") asks nothing, nor does a condition ("when the water gets hotter").
    clause = CLAUSE_END.search(question[start:])
    for match in WORD.finditer(question, start, start + clause.start() if clause else len(question)):
        word = re.sub(r"['’]s?$", "", match.group(0).lower())
        if terms := frozenset(content_terms(word)) & topic:
            found.setdefault(terms, zipf_frequency(word, "en"))
    rarest = min(found, key=found.__getitem__) if found else frozenset()
    named = {term.removesuffix("s") for name in names for term in content_terms(name)}
    return frozenset() if {term.removesuffix("s") for term in rarest} & named else rarest


_ALONG_WITH = re.compile(
    r"\s+(?:(?:along|together|combined)\s+with|alongside|as\s+well\s+as|in\s+addition\s+to)\b[^,;:.?!]*",
    re.IGNORECASE,
)
"""What a question asks besides what it asks about: what goes along with it ("how do I send a picture
along with my prompt" asks how a picture is sent; a sentence on sending the prompt does not answer)."""

_SETTING = re.compile(
    r"^\W*(?:once|when|whenever|if|after|before|while|since|although|though|because)\b[^,;:.?!]*,\s*",
    re.IGNORECASE,
)
"""A clause that opens a sentence and sets the scene for what it says ("Once you decide to proceed, it's
time to think about how you can fine tune ..." says what to think about, not how one decides)."""

COMMONEST_ZIPF = 5.5
"""Words this frequent in English (a few hundred: "use", "make", "like", "get") say nothing of what a
sentence or a question is about: two that share only such words share no subject."""


def explains_first(
    asked: Set[str],
    sentence: str,
    title: str,
    names: Sequence[str],
    wanted: Set[str] = frozenset(),
    listing: bool = False,
) -> tuple[bool, bool, int, bool, bool, bool]:
    """What puts a sentence (of an excerpt titled ``title``) first among those that may answer a why
    or how question (the question's terms ``asked``; ``names``: those of the concepts it names):
    that it shares two of its terms or more and is no lead-in (:func:`agents.lead_ins.leads_in`:
    "To get started, let us look at what X is:" only announces what the sentences after it say; "X
    lets the user:", its list not read with it, announces a list that is not there),
    that it is no series (:func:`agents.passages.series`:
    "We begin our tour of modern CNNs with AlexNet, ...; the residual network (ResNet), ...; and
    DenseNet ..." names them all and explains none), the concepts it names (:func:`names_said`),
    that it says the terms ``wanted`` itself (what a question asked yes or no asks of the concepts it
    names, :func:`asked_of`: "convex" in "Is the loss function of a neural network convex?", before
    a sentence that says more of its other words), that, naming them, it speaks of them, not of the
    text (:func:`agents.passages.points_elsewhere`: "As we mentioned earlier, batch normalization
    behaves differently in training mode", "We will revisit this in the next section, when we
    introduce weight decay" name it where it is explained, unless, pointing to no other part of the
    text, they go on to say what it is: :func:`agents.announcements.describes`, unless they only
    recount what the text did, :func:`agents.mechanisms.recounts`; of a sentence that
    names none, nothing tells what else it speaks of), and that it says two of the terms itself,
    not only in its title.
    "Why does the transformer need positional encoding?" is answered by a sentence on positional
    encodings in a section on the Transformer before one that says "need" of something else ("To
    visualize the decoder ... we need more data manipulations."); "How do I pick a learning rate
    schedule?" by a sentence on the learning rate before one in a section on it that says "pick" of
    something else ("For that we pick a modernized version of LeNet.").

    >>> asked = {"transformer", "need", "posit", "encod"}
    >>> names = ["Transformer", "positional encoding"]
    >>> explains_first(asked, "To visualize the encoder weights, we need more data.", "Transformer", names)
    (True, True, 1, True, True, False)
    >>> explains_first(asked, "Embeddings are added with positional encoding.", "Transformer", names)
    (True, True, 2, True, True, True)
    """
    words = set(content_terms(sentence))
    shared = len(asked & (words | set(content_terms(title))))
    named = names_said(names, sentence, title)
    stated = (
        not named
        or not points_elsewhere(sentence)
        or (describes(sentence, names) and not elsewhere(sentence) and not recounts(sentence))
    )
    announced = ":" in sentence and listing  # "... in 4 layers: **Model**. ...": its list asked for
    lead = (announced or not leads_in(sentence)) and not dangles(sentence)  # it says, not what comes next
    return (shared > 1 and lead, not series(sentence), named, wanted <= words, stated, len(asked & words) > 1)


def names_said(names: Sequence[str], sentence: str, title: str = "") -> int:
    """How many of ``names`` (a concept's name each) a sentence of an excerpt titled ``title`` says
    whole, itself or in its title: a name's words in a row, not its words apart ("the encoder
    outputs a vector for each position" does not say "positional encoding").

    >>> names = ["Transformer", "positional encoding"]
    >>> names_said(names, "The Transformer encoder outputs a vector for each position.")
    1
    >>> names_said(names, "Embeddings are added with positional encodings.", "The Transformer")
    2
    """
    words, headed = content_terms(sentence), content_terms(title)
    whole = [name for name in (content_terms(name) for name in names) if name]
    return sum(in_a_row(name, words) or in_a_row(name, headed) for name in whole)


def in_a_row(name: Sequence[str], words: Sequence[str]) -> bool:
    """Whether the terms of a name are among ``words`` in a row.

    >>> name = ["posit", "encod"]
    >>> in_a_row(name, ["ad", "posit", "encod"]), in_a_row(name, ["encod", "posit"])
    (True, False)
    """
    return any(list(words[at : at + len(name)]) == list(name) for at in range(len(words) - len(name) + 1))
