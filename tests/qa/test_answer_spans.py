"""The offline reader: which span of the given excerpts answers a question."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agents.answer_forms import expected_kind, question_terms
from agents.answer_spans import Excerpt, best_span

TOWNSHIP = Excerpt("c-1", "Van Hook Township", "Van Hook Township is a township in Mountrail County.")
COUNTY = Excerpt(
    "c-2", "Mountrail County", "Mountrail County is a county in North Dakota. Its county seat is Stanley."
)
OTHER = Excerpt("c-3", "Liberty Township", "Liberty Township is a township in Van Wert County, Ohio.")
GENERA = [
    Excerpt("c-1", "Aralia", "Aralia was described in 1753. Aralia is a genus of 68 species of plants."),
    Excerpt("c-2", "Betula", "Betula was named in 1901. Its trees reach 30 m. Betula has five species."),
]
"""A year or a height beside an option counts no species: what the question counts is a number its
words follow ("68 species", "five species", in digits or in words)."""


@pytest.mark.parametrize(
    ("question", "kind"),
    [
        ("When was the bridge opened?", "date"),
        ("What city was the author of What We Talk About When We Talk born in?", "name"),
        ("How many people live there?", "number"),
        ("Are Sutera and Rhodotypos both shrubs?", "yesno"),
        ("Who was born earlier, Ann Lee or Bo Park?", "option"),
        # When to use something, and what it is good or bad at or for, a sentence answers; not a
        # date or a name.
        ("When should I use dropout?", "explanation"),
        ("When is fine-tuning better than retrieval?", "explanation"),
        ("What are the main limitations of fine-tuning?", "explanation"),
        ("What is a vector database used for?", "explanation"),
        ("What is a vector database good for?", "explanation"),
        ("What problem does batch normalization solve?", "explanation"),
        ("What problems can retrieval-augmented generation address?", "explanation"),
        ("When is the festival held?", "date"),
    ],
)
def test_the_kind_asked_is_read_from_the_first_question_word(question: str, kind: str) -> None:
    assert expected_kind(question) == kind


def test_a_name_in_the_sentence_that_matches_the_question() -> None:
    span = best_span("Who founded Acme?", [Excerpt("c-9", "Acme", "Acme was founded by Jane Roe in 1901.")])
    assert span is not None and (span.text, span.excerpt) == ("Jane Roe", "c-9")
    assert 0 < span.support < 1 and span.sentence == "Acme was founded by Jane Roe in 1901."


def test_two_hops_through_the_excerpt_a_sentence_names() -> None:
    span = best_span(
        "What is the seat of the county where Van Hook Township is located?", [TOWNSHIP, COUNTY, OTHER]
    )
    assert span is not None and (span.text, span.excerpt) == ("Stanley", "c-2")


def test_one_hop_stays_in_the_sentence_that_answers() -> None:
    span = best_span("In which county is Van Hook Township?", [TOWNSHIP, COUNTY, OTHER])
    assert span is not None and span.text == "Mountrail County"


@pytest.mark.parametrize(
    ("excerpts", "smaller", "larger", "answers"),
    [
        (
            [
                Excerpt("c-1", "Ann Lee", "Ann Lee (born 1950) is a painter."),
                Excerpt("c-2", "Bo Park", "Bo Park (born 1942) is a poet."),
            ],
            "Who was born earlier, Ann Lee or Bo Park?",
            "Who was born later, Ann Lee or Bo Park?",
            ("Bo Park", "Ann Lee"),
        ),
        # Counts of what is asked (GENERA).
        (
            GENERA,
            "Which genus has fewer species, Aralia or Betula?",
            "Which genus has more species, Aralia or Betula?",
            ("Betula", "Aralia"),
        ),
    ],
)
def test_an_option_is_chosen_by_the_years_or_the_counts_its_excerpts_give(
    excerpts: list[Excerpt], smaller: str, larger: str, answers: tuple[str, str]
) -> None:
    low, high = best_span(smaller, excerpts), best_span(larger, excerpts)
    assert low is not None and high is not None and (low.text, high.text) == answers


def test_no_span_for_no_candidate_or_no_excerpt_and_a_sentence_for_a_yes_no_question() -> None:
    said = best_span("Is Acme in Oregon?", [Excerpt("c-1", "Acme", "Acme is in Oregon.")])
    assert said is not None and said.text == said.sentence == "Acme is in Oregon."  # never "Oregon"
    assert best_span("Who founded Acme?", [Excerpt("c-1", "Acme", "it was founded long ago.")]) is None
    assert best_span("Who founded Acme?", []) is None


def test_words_of_the_question_and_adjectives_are_no_answer() -> None:
    excerpt = Excerpt("c-1", "Jane Roe", "Jane Roe is an American actress who starred in Blue Sky.")
    span = best_span("Which film did the actress Jane Roe star in?", [excerpt])
    assert span is not None and span.text == "Blue Sky"


def test_what_x_is_is_read_from_the_sentence_that_says_it() -> None:
    excerpts = [
        Excerpt("c-1", "Models", "Transformers use attention everywhere."),
        Excerpt("c-2", "Attention", "**Attention** is a mechanism that weighs values, learned end to end."),
    ]
    span = best_span("What is attention?", excerpts)
    assert span is not None and (span.text, span.excerpt) == ("a mechanism that weighs values", "c-2")
    assert best_span("What is dropout?", excerpts) is None


def test_a_sentence_first_word_is_a_name_only_if_it_is_one_elsewhere() -> None:
    excerpts = [
        Excerpt("c-1", "Attention", "Scaled attention divides by a root. It was proposed by Ann Lee.")
    ]
    span = best_span("Which researcher proposed scaled attention?", excerpts)
    assert span is not None and span.text == "Ann Lee"


def test_a_contraction_that_opens_a_sentence_is_no_name() -> None:
    excerpts = [Excerpt("c-1", "Models", "Let's think about models and generalization.")]
    assert best_span("Who thinks about models and generalization?", excerpts) is None


def test_why_and_how_are_answered_with_the_sentence_that_explains() -> None:
    assert expected_kind("Why does dropout help generalization?") == "explanation"
    assert expected_kind("How does attention weigh the values?") == "explanation"
    assert expected_kind("How many heads are there?") == "number"
    excerpts = [
        Excerpt("c-1", "Generalization", "Let's think about what we expect. Models overfit."),
        Excerpt(
            "c-2",
            "Dropout",
            "Dropout helps generalization because it keeps units from co-adapting. Ann Lee proposed it.",
        ),
    ]
    span = best_span("Why does dropout help generalization?", excerpts)
    assert span is not None and span.excerpt == "c-2"
    assert span.text == "Dropout helps generalization because it keeps units from co-adapting."
    assert best_span("Why is the sky blue?", excerpts) is None


def test_an_explanation_that_opens_with_a_lead_in_runs_on_to_what_follows_it() -> None:
    excerpts = [
        Excerpt(
            "c-1",
            "Retrieval: Evaluating a retriever",
            "Check it in two steps. Recall at k is measured on labelled questions. Ann Lee proposed it.",
        ),
        Excerpt("c-2", "Retrieval", "Retrieval finds passages."),
    ]
    span = best_span("How is a retriever evaluated?", excerpts)  # "evaluated": "Evaluating" in the title
    assert span is not None and span.excerpt == "c-1"
    said = "Check it in two steps. Recall at k is measured on labelled questions."
    assert span.text == span.sentence == said


def test_the_words_that_frame_a_how_or_why_question_match_nothing() -> None:
    """ "work" in "How does X work?" would match "working" by its stem, "important" the verb "import"."""
    excerpts = [
        Excerpt(
            "c-1", "Normalization", "Batch normalization rescales the inputs of each layer during training."
        ),
        Excerpt("c-2", "Code", "Getting batch normalization working is easy: import it from the library."),
    ]
    for question in ("How does batch normalization work?", "Why is batch normalization important?"):
        span = best_span(question, excerpts)
        assert span is not None and span.excerpt == "c-1", question
    assert question_terms("How does batch normalization work?") == ["batch", "normal"]
    assert "work" in question_terms("Which work won the prize?")  # a name, not a frame


def test_of_sentences_that_match_alike_the_one_that_says_the_words_itself_explains() -> None:
    # Every sentence of an excerpt titled by the question's words matched them through the title:
    # the first one won ("Now that we have characterized the problem of overfitting, ...").
    excerpts = [
        Excerpt(
            "c-1",
            "Weight decay",
            "We now turn to a remedy for overfitting. Weight decay shrinks every weight toward zero.",
        )
    ]
    span = best_span("How does weight decay work?", excerpts)
    assert span is not None and span.text == "Weight decay shrinks every weight toward zero."


def test_how_a_concept_works_alone_is_answered_with_the_sentence_that_says_what_it_is() -> None:
    excerpts = [
        Excerpt("c-1", "Tricks", "We use dropout often."),
        Excerpt("c-2", "Regularizers", "**Dropout** is a technique that zeroes random units."),
    ]
    for question in ("How does dropout work?", "Why is dropout important?"):
        span = best_span(question, excerpts, ["dropout"])
        assert span is not None and span.text == "**Dropout** is a technique that zeroes random units."
        assert best_span(question, excerpts) is None  # a name the graph does not know
    # A question with more to it than the concept is read by its words.
    assert best_span("Why does dropout reduce overfitting?", excerpts, ["dropout"]) is None


def test_scores_do_not_depend_on_the_hash_seed() -> None:
    """Word weights are added up in one order: in set order, a float sum changes in its last digits
    from one process to the next (string hashing is salted), and a tie between two spans with it."""
    script = (
        "import math\n"
        "from agents.answer_spans import _overlap\n"
        "words = 'attention transformer encoder decoder softmax layer token query key value'.split()\n"
        "idf = {w: math.log(1000 / (7 * i + 3)) for i, w in enumerate(words)}\n"
        "print(repr(_overlap(set(words), frozenset(words), idf)))\n"
    )
    seen = {
        subprocess.run(
            [sys.executable, "-c", script],
            env={**os.environ, "PYTHONHASHSEED": str(seed)},
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        for seed in range(10)
    }
    assert len(seen) == 1


def test_without_x_is_a_sentence_that_names_x_defines_it() -> None:
    excerpts = [
        Excerpt("c-1", "Tricks", "We apply dropout to layers."),
        Excerpt("c-2", "Dropout", "This idea is known as *dropout*, and it injects noise."),
    ]
    span = best_span("What is dropout?", excerpts)
    assert span is not None and span.excerpt == "c-2"
    assert span.text == "This idea is known as *dropout*, and it injects noise."


def test_without_x_is_or_a_name_the_sentence_that_emphasises_x_defines_it() -> None:
    excerpts = [
        Excerpt("c-1", "Tricks", "We apply batch normalization to layers."),
        Excerpt("c-2", "Normalization", "We describe **batch normalization**, which speeds training."),
    ]
    span = best_span("What is batch normalization?", excerpts)
    assert span is not None and span.excerpt == "c-2" and span.text.startswith("We describe")
    # Beside the class it is one of, what that says X is is the answer, in the sentence quoted.
    apposed = "We describe **batch normalization**, a technique that speeds training."
    span = best_span("What is batch normalization?", [excerpts[0], Excerpt("c-2", "Normalization", apposed)])
    assert span is not None and (span.text, span.sentence) == ("a technique that speeds training", apposed)


def test_an_option_alone_in_the_excerpts_is_reported_with_the_sentence_that_gives_its_year() -> None:
    # A routed expert sees the excerpts of its own domain only: it can name its option, and it must
    # quote the fact a comparison needs (the year), not merely the first sentence about the option.
    excerpts = [Excerpt("c-2", "Bo Park", "Bo Park is a poet from Busan. Bo Park was born in 1942.")]
    span = best_span("Who was born earlier, Ann Lee or Bo Park?", excerpts)
    assert span is not None and (span.text, span.sentence) == ("Bo Park", "Bo Park was born in 1942.")


def test_an_option_quotes_the_sentence_that_counts_what_is_asked() -> None:
    more = best_span("Which genus has more species, Aralia or Betula?", GENERA)
    fewer = best_span("Which genus has fewer species, Aralia or Betula?", GENERA)
    assert more is not None and more.sentence == "Aralia is a genus of 68 species of plants."
    assert fewer is not None and fewer.sentence == "Betula has five species."


def test_an_option_alone_is_reported_with_the_sentence_that_matches_the_question_best() -> None:
    # No number or year decides "Which is a comedy film?": the sentence quoted is the one that
    # shares the most of the question's words, so that synthesis can compare two experts' quotes.
    said = "Big Duck is a comedy film by Sam Roe."
    excerpts = [Excerpt("c-1", "Big Duck", f"Big Duck was released in May. {said}")]
    span = best_span("Which is a comedy film, Big Duck or Long Night?", excerpts)
    assert span is not None and (span.text, span.sentence) == ("Big Duck", said)


def test_a_question_asked_yes_or_no_is_answered_by_the_sentence_about_its_concept_that_bears_on_it() -> None:
    # A span cannot say yes or no; the sentence that shares the most of the question's words, among
    # those that name a concept the question names, can. One that shares as much but names another
    # concept ("attention heads have learnable parameters") is not about the question.
    excerpts = [
        Excerpt("c-1", "Attention", "Each attention head has learnable parameters for queries and keys."),
        Excerpt(
            "c-2", "Pooling", "Pooling is cheap. Unlike a convolution, the pooling layer has no parameters."
        ),
    ]
    question = "Does a pooling layer have learnable parameters?"
    span = best_span(question, excerpts, ["pooling layer"])
    assert span is not None and span.sentence == span.text
    assert span.sentence == "Unlike a convolution, the pooling layer has no parameters."
    assert best_span(question, excerpts[:1], ["pooling layer"]) is None
    # With no concept named, any sentence may answer.
    anything = best_span(question, excerpts[:1])
    assert anything is not None and anything.excerpt == "c-1"


def test_a_question_asked_yes_or_no_is_answered_by_the_usual_case_not_by_an_exception() -> None:
    # The exception shares more of the question's words ("updated"), but the rule answers it.
    rule = "Typically, we freeze the batch normalization statistics at prediction time."
    exception = (
        "However, there are some exceptions: some practitioners keep updating the batch normalization "
        "statistics at prediction time on new data."
    )
    excerpts = [Excerpt("c-1", "Batch Normalization", f"{rule} {exception}")]
    question = "Are batch normalization statistics updated at prediction time?"
    span = best_span(question, excerpts, ["batch normalization"])
    assert span is not None and span.sentence.startswith(rule)
    # Alone, the exception still answers: it is what the lesson says.
    alone = best_span(question, [Excerpt("c-1", "Batch Normalization", exception)], ["batch normalization"])
    assert alone is not None and alone.sentence == exception
    # With no exception said, "typically" puts no sentence before one that shares more of the words.
    plain = "The batch normalization statistics are updated at prediction time only in online learning."
    neither = best_span(
        question, [Excerpt("c-1", "Batch Normalization", f"{rule} {plain}")], ["batch normalization"]
    )
    assert neither is not None and neither.sentence == plain


def test_what_a_concept_is_good_or_bad_at_is_a_sentence_about_it_that_says_what_is_asked() -> None:
    # "What are the limitations of X?": a sentence that names X and nothing asked of it ("limitations")
    # does not answer; one that names X and says it is limited does.
    named = Excerpt(
        "c-1", "Pooling", "A pooling layer follows each convolutional block in the pooling network."
    )
    limited = Excerpt("c-2", "Pooling", "A pooling layer is limited to fixed windows.")
    question = "What are the limitations of a pooling layer?"
    assert best_span(question, [named], ["pooling layer"]) is None
    span = best_span(question, [named, limited], ["pooling layer"])
    assert span is not None and span.sentence == "A pooling layer is limited to fixed windows."


def test_what_a_concept_is_for_is_what_it_is_when_no_sentence_says_it_in_the_questions_words() -> None:
    defined = Excerpt("c-1", "Matplotlib", "Matplotlib is a plotting library that draws charts from arrays.")
    other = Excerpt("c-2", "Notes", "This result is not as good as the first one.")
    for question in (
        "What is matplotlib good for?",
        "What problem does matplotlib solve?",
        "What is the purpose of matplotlib?",
    ):
        span = best_span(question, [other, defined], ["matplotlib"])
        assert span is not None and span.excerpt == "c-1", question
    # Its strengths or limitations are not what it is: no sentence says them here.
    assert best_span("What are the limitations of matplotlib?", [other, defined], ["matplotlib"]) is None
    # A sentence that only names it says nothing of what it is for; one that goes on about it may.
    named = Excerpt("c-3", "Data", "This is commonly called the *IID assumption*.")
    assert best_span("What is the IID assumption used for?", [named], ["IID assumption"]) is None
    about = Excerpt(
        "c-4", "Data", "The *IID assumption* lets us treat every example as a fresh draw from one source."
    )
    span = best_span("What is the IID assumption used for?", [named, about], ["IID assumption"])
    assert span is not None and span.excerpt == "c-4"


def test_a_name_with_initials_is_one_name() -> None:
    excerpts = [Excerpt("c-1", "High Castle", "The Man in the High Castle is a novel by Philip K. Dick.")]
    span = best_span("Who wrote The Man in the High Castle?", excerpts)
    assert span is not None and span.text == "Philip K. Dick"


def test_a_sentence_that_shares_nothing_with_the_question_answers_nothing() -> None:
    # Neither the sentence nor its title holds a word of the question, and no excerpt leads to it:
    # a name in it ("Subword") is no answer to "What is the meaning of life?".
    unrelated = [Excerpt("c-1", "Tokens", "Subword tokenization is used by nearly every modern model.")]
    assert best_span("What is the meaning of life?", unrelated) is None
    assert best_span("help", unrelated) is None
    related = [Excerpt("c-2", "Tokens", "Subword tokenization was proposed by Rico Sennrich in 2016.")]
    span = best_span("Who proposed subword tokenization?", related)
    assert span is not None and span.text == "Rico Sennrich"


_WORDS = st.sampled_from(
    "dropout is a technique that zeroes units . How does work why important What the model evaluated "
    "evaluating RAG system , and ; ( ) ** * _ called known as 1901 Jane Roe Acme".split()
)
_TEXT = st.lists(_WORDS, max_size=40).map(" ".join)


@settings(max_examples=300, deadline=None)
@given(
    question=_TEXT, first=_TEXT, second=_TEXT, also=st.lists(st.sampled_from(["dropout", "Acme"]), max_size=2)
)
def test_a_span_quotes_the_excerpt_it_cites_word_for_word(
    question: str, first: str, second: str, also: list[str]
) -> None:
    """Whatever the question and the excerpts, a span's sentence is text of the excerpt it cites
    (what an answer quotes can be checked against the lesson), and its support is in [0, 1]."""
    excerpts = {"c-1": first, "c-2": second}
    given_excerpts = [Excerpt("c-1", "Dropout: Evaluating", first), Excerpt("c-2", "Acme", second)]
    for asked in (
        question,
        f"What is {question}?",
        f"How does {question} work?",
        f"Why is {question} important?",
    ):
        span = best_span(asked, given_excerpts, also)
        if span is not None:
            assert " ".join(span.sentence.split()) in " ".join(excerpts[span.excerpt].split())
            assert 0.0 <= span.support <= 1.0


def test_a_question_the_lesson_asks_answers_nothing() -> None:
    # genai: "How does semantic search work?" quoted "Now you might be wondering, what is semantic
    # search?", the sentence before the one that says what it is.
    excerpts = [
        Excerpt(
            "c-1",
            "Search",
            "Now you might be wondering, what is semantic search? Semantic search is a search technique "
            "that uses the meaning of the words in a query.",
        )
    ]
    for question in ("How does semantic search work?", "Why is semantic search important?"):
        span = best_span(question, excerpts, ["semantic search"])
        assert span is not None and span.sentence.startswith("Semantic search is a search technique"), (
            question
        )
    asked_only = [Excerpt("c-2", "Search", "What is *semantic search*, then?")]
    assert best_span("How does semantic search work?", asked_only, ["semantic search"]) is None
    # A question that says more is read when nothing else answers (genai: an evaluation described
    # by what it tests; "not covered" lost to it in a blind review).
    described = "Steganography: How well can an AI system pass secret messages without being caught?"
    span = best_span("What is steganography?", [Excerpt("c-3", "Evals", described)], ["steganography"])
    assert span is not None and span.sentence == described


def test_a_hyphenated_name_with_of_in_it_is_asked_what_it_is() -> None:
    # "What is chain-of-thought prompting?" was read as a question for a name ("of" ended the
    # term) and answered "LLM", a name in the sentence after a colon.
    assert expected_kind("What is chain-of-thought prompting?") == "definition"
    assert expected_kind("What is the seat of the county?") == "name"  # "of" as a word still ends it
    excerpts = [
        Excerpt(
            "c-1",
            "Chain-of-thought",
            "Chain-of-thought is a technique that takes the LLM through a series of steps. Consider an "
            "example, with and without chain-of-thought: LLM answers with 5.",
        )
    ]
    span = best_span("What is chain-of-thought prompting?", excerpts, ["chain-of-thought"])
    assert span is not None and span.text == "a technique that takes the LLM through a series of steps"


@pytest.mark.parametrize(
    ("named", "question"),
    [
        ("We call this the *backwards pass*.", "What is the backwards pass?"),
        ("This is commonly called the *backwards pass*.", "How does the backwards pass work?"),
    ],
)
def test_a_sentence_that_names_what_the_one_before_says_is_quoted_with_it(named: str, question: str) -> None:
    # d2l: "What is backwards pass?" was answered "We call this the *backwards pass*.": the name,
    # and nothing of what it names.
    said = "Compute the gradient of the loss from the output back to the input."
    excerpts = [Excerpt("c-1", "Backpropagation", f"Layers are stacked. {said} {named}")]
    span = best_span(question, excerpts, ["backwards pass"])
    assert span is not None and span.text == span.sentence == f"{said} {named}"
    # Only the sentence before it in its excerpt: not one of another excerpt.
    alone = [Excerpt("c-0", "Layers", said), Excerpt("c-1", "Backpropagation", named)]
    span = best_span(question, alone, ["backwards pass"])
    assert span is not None and span.text == named


def test_what_a_thing_does_is_answered_with_a_sentence_not_a_name() -> None:
    # d2l: "What does exponential decay do?" was read as asking for a name and answered "Below".
    for question in ("What does an encoder do?", "What happens when the learning rate is too high?"):
        assert expected_kind(question) == "explanation", question
    assert expected_kind("What does Acme make?") == "name"  # a thing it makes, not what it does
    excerpts = [
        Excerpt(
            "c-1",
            "Schedules",
            "Below, we compare schedules. An exponential decay shrinks the learning rate by a constant "
            "factor at every step.",
        )
    ]
    span = best_span("What does exponential decay do?", excerpts)
    assert span is not None and span.text.startswith("An exponential decay shrinks the learning rate")


def test_a_sentence_after_a_list_of_titles_is_the_next_paragraph_not_its_last_item() -> None:
    # "What is an LLM?" quoted a lesson's contents run into the sentence after them (found by a
    # hostile run); a list's first item that is a sentence is still read with its announcement.
    from agents.passages import passages

    contents = (
        "In this chapter, you will: ¶ Understand the Paradigm Shift from MLOps to LLMOps ¶ The LLM "
        "Lifecycle ¶ Lifecycle Tooling ¶ LLMs are a new tool in the artificial intelligence arsenal."
    )
    assert passages(contents)[-1] == "LLMs are a new tool in the artificial intelligence arsenal."
    needs = "To perform RL, we need: ¶ An **environment** that sets the rules. ¶ Rewards come later."
    assert passages(needs)[0] == "To perform RL, we need: An **environment** that sets the rules."
    span = best_span("What is an LLM?", [Excerpt("c-1", "LLMOps", contents)], ["LLM"])
    assert span is not None and span.sentence == "LLMs are a new tool in the artificial intelligence arsenal."


CONTENTS = Excerpt(
    "c-1",
    "Convolutional Networks",
    "Table of Contents: ¶ Architecture Overview ¶ ConvNet Layers ¶ Convolutional Layer ¶ Pooling Layer "
    "¶ Fully-Connected Layer",
)
"""A table of contents: a run of short headings, one of them the concept's name."""


def test_a_definition_is_read_from_prose_before_a_table_of_contents_that_names_the_concept() -> None:
    # cs231n "What is a convolutional layer?" quoted its lesson's table of contents, the first
    # passage that named it.
    prose = Excerpt(
        "c-2",
        "Layers",
        "Every ConvNet stacks a convolutional layer after the input, and its neurons see a patch.",
    )
    span = best_span("What is a convolutional layer?", [CONTENTS, prose], ["convolutional layer"])
    assert span is not None and span.excerpt == "c-2"
    assert span.sentence == prose.text


def test_a_table_of_contents_is_no_definition_even_when_no_sentence_names_the_concept() -> None:
    # The headings say nothing of what X is: the expert answers from its edges instead.
    other = Excerpt("c-2", "Layers", "Every ConvNet stacks layers after the input.")
    assert best_span("What is a convolutional layer?", [CONTENTS, other], ["convolutional layer"]) is None


def test_a_gloss_in_a_list_is_still_a_definition() -> None:
    glossary = Excerpt(
        "c-1",
        "Terms",
        "Key terms: ¶ **Pooling layer** - the layer that downsamples its input ¶ **Stride** - the step "
        "¶ **Padding** - the border",
    )
    prose = Excerpt("c-2", "Layers", "Every ConvNet has a pooling layer after a few convolutions.")
    span = best_span("What is a pooling layer?", [glossary, prose], ["pooling layer"])
    assert span is not None and span.text == "the layer that downsamples its input"


def test_a_list_of_glossed_terms_is_no_table_of_contents() -> None:
    # genai "What is tokenization?" quoted "... three concepts: _Tokenization_ = how the model "sees"
    # the prompt ...": a list whose items say what each term is, not a list of headings.
    concepts = Excerpt(
        "c-1",
        "Prompts",
        'We need three concepts: ¶ _Tokenization_ = how the model "sees" the prompt ¶ _Base LLMs_ = how '
        'the model "processes" a prompt ¶ _Instruction-Tuned LLMs_ = how the model sees "tasks"',
    )
    prose = Excerpt(
        "c-2", "Requests", "The request is in this form, where the _tokenization_ captures context."
    )
    span = best_span("What is tokenization?", [concepts, prose], ["tokenization"])
    assert span is not None and span.excerpt == "c-1"


def test_a_number_answers_how_many_or_how_much_only_when_it_is_said_of_what_is_asked() -> None:
    # "12" counts minutes in a sentence that shares "stop" and "early" with the question: it says
    # nothing of patience, and no other number is given.
    timed = Excerpt(
        "c-1",
        "Tuning",
        "We can run the search as before (this will take about 12 minutes): trials that "
        "underperform are stopped early.",
    )
    assert best_span("How much patience should I give early stopping?", [timed]) is None
    # The number that is said of what is asked, after it or before it, though another is nearer.
    encoder = [Excerpt("c-2", "Encoder", "The encoder uses 12 minutes per epoch and 8 heads.")]
    span = best_span("How many heads does the encoder use?", encoder)
    assert span is not None and span.text == "8"
    patience = [Excerpt("c-3", "Stopping", "Stopping early after 12 minutes with a patience of 5 works.")]
    span = best_span("How much patience should I give early stopping?", patience)
    assert span is not None and span.text == "5"
    # What is asked, written before a number, is said of it only as the word right before it
    # (function words aside): "images representing 10 categories" counts categories.
    fashion = [Excerpt("c-7", "Data", "Fashion-MNIST consists of images representing 10 categories.")]
    assert best_span("How many images are in Fashion-MNIST?", fashion) is None
    # A range counts what follows it.
    shots = [Excerpt("c-8", "Few-shot", "Few-shot prompting gives the model 1 or more examples.")]
    assert (span := best_span("How many examples does few-shot prompting give?", shots)) is not None
    assert span.text == "1"
    # A number glued to a name ("ResNet-152") is said of nothing; a question that names nothing it
    # counts ("How much does it cost?") takes the best-scored number, as before.
    layered = [Excerpt("c-4", "ResNet", "ResNet-152 has 152 layers and takes 3 days to train.")]
    assert (span := best_span("How many layers does ResNet-152 have?", layered)) is not None
    assert span.text == "152"
    assert (span := best_span("How many days does ResNet-152 take to train?", layered)) is not None
    assert span.text == "3"
    assert best_span("How many blocks does ResNet-152 have?", layered) is None
    hyphened = [Excerpt("c-6", "ResNet", "The ResNet-152 model is a deeper 152-layer network.")]
    assert (span := best_span("How many layers does the ResNet-152 model have?", hyphened)) is not None
    assert span.text == "152"
    priced = [Excerpt("c-5", "Cost", "Training it costs $300 and takes 3 days.")]
    assert (span := best_span("How much does training cost?", priced)) is not None and span.text == "$300"
