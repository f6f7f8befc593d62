"""The prose view of lessons written in other markups than Markdown's own (Pandoc, reStructuredText,
org, MyST, HTML's definition lists), and of what no markup marks: a bibliography, a code name written
bare in a sentence.
Each case was prose, found by a hostile run on realistic lessons, and gave evidence or concepts."""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest

from agents.extraction import extract_lesson
from agents.offline.handlers import offline_handlers
from agents.registry import Registry
from governance.ingestion import ingest
from magg_kg.clock import StepClock
from magg_kg.lessons import read_lesson
from magg_kg.llm.offline import OfflineLLM
from magg_kg.markup import Markup, find_prose
from magg_kg.sqlite import SQLiteStore
from magg_kg.vocabulary import CURRICULUM
from tests.ingestion.test_ingest import CountingLLM, context


def words(markup: Markup) -> str:
    return " ".join(markup.prose.split())


# Tables drawn with dashes: Pandoc's grid, simple and multiline tables, reST's and org's.

GRID = """\
Optimizers need care.

+---------------+---------------------------------------+
| Method        | Note                                  |
+===============+=======================================+
| Momentum      | Momentum is a prerequisite for Adam   |
+---------------+---------------------------------------+
| Clipping      | Clipping is part of stable training   |
+---------------+---------------------------------------+
| Decay         | Weight decay shrinks every weight.    |
+---------------+---------------------------------------+
| Averaging     | Averaging weights helps a model that  |
|               | overfits late in training.            |
+---------------+---------------------------------------+

After the table.
"""

SIMPLE = """\
Weeks of the course.

  Week   Topic              Relation
  ------ ------------------ ---------------------------------------
  1      Attention          attention builds on recurrent networks
  2      Transformer        the transformer is part of modern NLP
  3      Encoders           Encoders read the whole input sequence.

After the table.
"""

MULTILINE = """\
Weeks of the course.

------------------------------------------------------
 Week  Topic          Notes
------ -------------- --------------------------------
 1     Decision       Decision processes are a
       processes      prerequisite for reinforcement
                      learning.

 2     Policy         Policy gradient builds on
       gradient       value functions.
------------------------------------------------------

After the table.
"""

HEADERLESS = """\
Weeks of the course.

-------     ------  ----------
  First     Second  Third one
  12        13      14
-------     ------  ----------

After the table.
"""

REST_SIMPLE = """\
Truth table.

=====  =====  =======
A      B      A and B
=====  =====  =======
False  False  False
True   True   True
=====  =====  =======

After the table.
"""

ORG = """\
Methods compared.

|-----------------+---------------|
| Method          | Policy        |
|-----------------+---------------|
| Q-learning      | off policy    |
| SARSA           | on policy     |
|-----------------+---------------|

After the table.
"""


@pytest.mark.parametrize(
    ("text", "prose"),
    [
        # A cell that reads as a sentence, in a row of one line, stays prose, as a pipe table's does;
        # one wrapped over two lines is blanked (quoted, it would take the other column's words).
        (GRID, "Optimizers need care. Weight decay shrinks every weight. After the table."),
        (SIMPLE, "Weeks of the course. Encoders read the whole input sequence. After the table."),
        (MULTILINE, "Weeks of the course. After the table."),
        (HEADERLESS, "Weeks of the course. After the table."),
        (REST_SIMPLE, "Truth table. After the table."),
        (ORG, "Methods compared. After the table."),
        (
            ORG.replace("|-----------------+---------------|\n| Method", "| Method", 1),
            "Methods compared. After the table.",
        ),
    ],
    ids=["grid", "simple", "multiline", "headerless", "rest-simple", "org", "org-header-first"],
)
def test_tables_drawn_with_dashes_are_tables(text: str, prose: str) -> None:
    markup = find_prose(text)
    assert words(markup) == prose
    assert "table" in {r.kind for r in markup.regions}
    assert len(markup.prose) == len(text)


@pytest.mark.parametrize(
    "text",
    [
        "Title\n-----\n\nDropout is a regularizer.\n",  # a setext heading
        "Dropout is a regularizer.\n\n---\n\nBatch norm is a layer.\n",  # a thematic break
        "Dropout is a regularizer.\n\n- - -\n\nBatch norm is a layer.\n",
        "Dropout is a regularizer.\n\n=====\n\nBatch norm is a layer.\n",
        # A stray rule of runs, with prose after it up to a thematic break: no table, as a word
        # stands between its columns.
        "Intro.\n\n---- ----\nDropout is a regularizer that drops units.\n\nMore prose here.\n---\n\nEnd.\n",
        # A header and a rule with no row under them.
        "Intro.\n\nName   Value\n----   -----\n\nDropout is a regularizer.\n",
        # A box of one border only.
        "Intro.\n\n+-----+\n| Dropout is a regularizer. |\n\nEnd.\n",
    ],
)
def test_rules_of_dashes_in_prose_are_no_tables(text: str) -> None:
    markup = find_prose(text)
    assert "table" not in {r.kind for r in markup.regions}
    for sentence in ("Dropout is a regularizer", "Batch norm is a layer", "More prose here"):
        assert sentence not in text or sentence in markup.prose


@pytest.mark.parametrize(
    "piece",
    [
        "-- --\n",
        "\n-- --\nab cd\n",
        "\n-- --\nab\n\n",
        "\n---\nA\n-- --\n",
        "+--+\n",
        "+--+\n|a\n",
        "\n== ==\n\n",
        "- Smith, J. 2001\n  ",
        "## References\n- a\n",
        "Run::\n\n  x\n",
        "```{note}\n:a: b\n",
        "a-",
        "ab.",
        "a_",
        "a::",
        "aa-b_",
        "x.y-",
    ],
)
def test_repeated_blocks_are_read_in_linear_time(piece: str) -> None:
    text = (piece * (400_000 // len(piece) + 1))[:400_000]
    started = time.perf_counter()
    assert len(find_prose(text).prose) == len(text)
    assert time.perf_counter() - started < 3  # a quadratic scan takes minutes here


def test_a_grid_table_gives_no_edge_across_its_rows(
    tmp_path: Path, store: SQLiteStore, clock: StepClock
) -> None:
    # Read as prose, the rows ran into one sentence: "Warmup" of one row and the cue "is a
    # prerequisite for" of the next made "warmup prerequisite gradient-clipping", quoting the table.
    folder = tmp_path / "lessons"
    folder.mkdir()
    (folder / "schedules.md").write_text(
        "# Schedules\n\nLearning rate warmup and gradient clipping keep large-batch training stable: "
        "clipping bounds the norm of the gradient.\n\n"
        "+--------------------+----------------------------------------+\n"
        "| Technique          | Relation                               |\n"
        "+====================+========================================+\n"
        "| Warmup             | Warmup is a prerequisite for LAMB      |\n"
        "+--------------------+----------------------------------------+\n"
        "| Gradient clipping  | Gradient clipping is part of LAMB      |\n"
        "+--------------------+----------------------------------------+\n",
        encoding="utf-8",
    )
    ingest([folder], context(store, clock, CountingLLM()))
    assert store.concepts()  # the prose was read
    quotes = [span.quote for p in store.proposals() for span in p.evidence]
    assert not [q for q in quotes if "+---" in q or "|" in q]


# reStructuredText's literal blocks and code directives.


@pytest.mark.parametrize(
    ("text", "prose", "kind"),
    [
        (
            "Intro.\n\n.. code-block:: python\n\n   # softmax builds on logits\n   loss = f(x)\n\nAfter.\n",
            "Intro. After.",
            "code",
        ),
        (".. code:: python\n   :linenos:\n\n x = 1\n  y = 2\n\nAfter.\n", "After.", "code"),
        ("Intro.\n\n.. sourcecode:: bash\n\n    pip install torch\n\nAfter.\n", "Intro. After.", "code"),
        ("Intro.\n\n.. math::\n\n   F_m(x) = F_{m-1}(x)\n\nAfter.\n", "Intro. After.", "math"),
        # A paragraph ending in "::" makes the block after it literal, one space deep or more.
        (
            "Run the loop::\n\n  for batch in data:\n      step(batch)\n\nAfter.\n",
            "Run the loop:: After.",
            "code",
        ),
        ("Run the loop: ::\n\n x = 1\n\nAfter.\n", "Run the loop: :: After.", "code"),
        ("- Run the loop::\n\n     x = 1\n\n- Next item.\n", "Run the loop:: Next item.", "code"),
    ],
)
def test_rest_literal_blocks_and_code_directives_are_code(text: str, prose: str, kind: str) -> None:
    markup = find_prose(text)
    assert words(markup) == prose
    assert kind in {r.kind for r in markup.regions}


@pytest.mark.parametrize(
    ("text", "prose"),
    [
        # An admonition's directive ends in "::", but its body is prose.
        (".. note::\n\n   Dropout is a regularizer.\n", "Dropout is a regularizer."),
        # "::" must end the paragraph before the block, after a blank line.
        ("Use it::\n  Dropout is a regularizer.\n", "Use it:: Dropout is a regularizer."),
        ("Use it::\n\nDropout is a regularizer.\n", "Use it:: Dropout is a regularizer."),
        ("Use it:\n\n   Dropout is a regularizer.\n", "Use it: Dropout is a regularizer."),
        # A Markdown list item's second paragraph is prose, its indented code is code.
        ("- Step one.\n\n    Dropout is a regularizer.\n", "Step one. Dropout is a regularizer."),
        (
            "Step one.\n\n    x = dropout(y)\n\nDropout is a regularizer.\n",
            "Step one. Dropout is a regularizer.",
        ),
        # The block ends at the first line no deeper than the paragraph.
        ("Run::\n\n   x = 1\nDropout is a regularizer.\n", "Run:: Dropout is a regularizer."),
    ],
)
def test_what_is_no_literal_block_stays_as_it_was(text: str, prose: str) -> None:
    assert words(find_prose(text)) == prose


def test_a_code_directive_gives_no_evidence(tmp_path: Path, store: SQLiteStore, clock: StepClock) -> None:
    # Its comment ("cross-entropy loss builds on softmax") was evidence, the code its quote.
    folder = tmp_path / "lessons"
    folder.mkdir()
    (folder / "losses.md").write_text(
        "Classification losses\n=====================\n\n"
        "The **softmax function** turns logits into probabilities. The **cross-entropy loss** compares "
        "two distributions.\n\n.. code-block:: python\n\n   for batch in loader:\n"
        "       probs = softmax(model(batch))  # the cross-entropy loss builds on the softmax function\n"
        "       loss = cross_entropy(probs, batch.labels)\n\nTraining minimizes the loss.\n",
        encoding="utf-8",
    )
    ingest([folder], context(store, clock, CountingLLM()))
    assert {"softmax-function", "cross-entropy-loss"} <= {c.id for c in store.concepts()}
    assert not [span.quote for p in store.proposals() for span in p.evidence if "loader" in span.quote]


# Directives: a MyST or reST directive's body is prose, unless it is code, math or a table; its
# line and options are markup.


@pytest.mark.parametrize(
    ("text", "prose"),
    [
        (
            "Intro.\n\n```{note}\nDropout is a regularizer.\n```\n\nAfter.\n",
            "Intro. Dropout is a regularizer. After.",
        ),
        ("```{warning} Mind the logits.\nThey overflow.\n```\n", "Mind the logits. They overflow."),
        (
            "```{admonition} Numerical stability\n:class: tip\nSubtract the maximum.\n```\n",
            "Subtract the maximum.",
        ),
        (
            ":::{tip}\n:class: dropdown\n:name: t1\nDropout is a regularizer.\n:::\n\nAfter.\n",
            "Dropout is a regularizer. After.",
        ),
        ("::::{admonition} Title\n---\nclass: tip\n---\nBody text.\n::::\n", "Body text."),
        (
            "```{figure} ../img/a.png\n:width: 50%\nA caption that is prose.\n```\n",
            "A caption that is prose.",
        ),
        # A code fence inside a directive's body stays code; the directive closes after it.
        (
            "````{note}\nProse first.\n```python\nx = f(1)\n```\nProse last.\n````\n\nAfter.\n",
            "Prose first. Prose last. After.",
        ),
        # reST: the line and options are markup, the body prose however deep it is indented.
        (
            ".. note::\n   :class: tip\n\n    Dropout is a regularizer.\n\nAfter.\n",
            "Dropout is a regularizer. After.",
        ),
        (".. warning:: Mind the logits.\n\nAfter.\n", "Mind the logits. After."),
        (".. admonition:: Numerical stability\n\n   Subtract the maximum.\n", "Subtract the maximum."),
        (
            ".. figure:: img/a.png\n   :width: 50%\n\n   A caption that is prose.\n",
            "A caption that is prose.",
        ),
    ],
)
def test_a_directive_body_is_prose_and_its_line_and_options_are_not(text: str, prose: str) -> None:
    markup = find_prose(text)
    assert words(markup) == prose
    assert "admonition" in {r.kind for r in markup.regions}


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("```{code-cell} ipython3\nimport torch\nx = torch.ones(3)\n```\n\nAfter.\n", "code"),
        ("```{code-block} python\n:linenos:\ny = softmax(x)\n```\n\nAfter.\n", "code"),
        ("```{math}\n:label: eq-kl\nD = \\sum_j p_j \\log q_j\n```\n\nAfter.\n", "math"),
        ("```{eval-rst}\n.. autofunction:: softmax\n```\n\nAfter.\n", "code"),
        (":::{code-block} python\ny = softmax(x)\n:::\n\nAfter.\n", "code"),
        ("```{list-table}\n* - Dropout is a regularizer.\n  - yes\n```\n\nAfter.\n", "table"),
    ],
)
def test_a_code_directive_stays_blanked(text: str, kind: str) -> None:
    markup = find_prose(text)
    assert words(markup) == "After."
    assert kind in {r.kind for r in markup.regions}


def test_a_note_gives_evidence_and_an_admonition_no_title_or_option_in_its_quote(
    tmp_path: Path, store: SQLiteStore, clock: StepClock
) -> None:
    folder = tmp_path / "lessons"
    folder.mkdir()
    (folder / "softmax.md").write_text(
        "# Softmax regression\n\nThe **softmax function** maps logits to probabilities. The **cross-entropy "
        "loss** compares the prediction with the label.\n\n```{note}\nThe softmax function is a prerequisite "
        "for the cross-entropy loss.\n```\n\n:::{admonition} Numerical stability\n:class: tip\nThe softmax "
        "function is part of the cross-entropy loss in most libraries.\n:::\n",
        encoding="utf-8",
    )
    ingest([folder], context(store, clock, CountingLLM()))
    quotes = [span.quote for p in store.proposals() for span in p.evidence]
    assert any(q.startswith("The softmax function is a prerequisite") for q in quotes), quotes
    assert not [q for q in quotes if "{" in q or ":class:" in q or "stability" in q]


# A bibliography: the section under a heading that names one, and an item shaped as a citation.

BIBLIOGRAPHY = """\
# Autoencoders

An autoencoder rebuilds its input.

## References

The papers this lesson draws on.

1. Kingma, D. P., & Welling, M. (2014). Auto-encoding variational Bayes. In *ICLR*.
2. Doersch, C. (2016). Tutorial on variational autoencoders.
   arXiv preprint arXiv:1606.05908.

### Surveys

- Bengio, Y. Representation learning: a review. 2013.

## Exercises

Train an autoencoder on digits.
"""


BEFORE, AFTER = (
    "# Autoencoders An autoencoder rebuilds its input.",
    "## Exercises Train an autoencoder on digits.",
)


@pytest.mark.parametrize(
    ("text", "prose"),
    [
        (BIBLIOGRAPHY, f"{BEFORE} ## References {AFTER}"),
        (
            BIBLIOGRAPHY.replace("## References", "## 7. **Bibliography:**"),
            f"{BEFORE} ## 7. **Bibliography:** {AFTER}",
        ),
        (
            "Intro.\n\nWorks cited\n-----------\n\nDoersch, C. Tutorial on VAEs, 2016.\n\n"
            "Next\n----\n\nMore.\n",
            "Intro. Works cited ----------- Next ---- More.",  # a heading's underline shows as written
        ),
        # Items shaped as citations, anywhere: authors, a year, a mark of a publication.
        (
            "- Kingma, D. P., & Ba, J. (2015). Adam: a method for stochastic optimization.\n"
            "- Adam is an optimizer.\n",
            "Adam is an optimizer.",
        ),
        (
            "1. A. Vaswani, N. Shazeer et al., Attention is all you need, 2017, pp. 5998-6008.\n\nAfter.\n",
            "After.",
        ),
        (
            "* [3] Vaswani et al. 2017. Attention is all you need. In Advances in Neural "
            "Information Processing Systems.\n\nAfter.\n",
            "After.",
        ),
        (
            "- He, K., Zhang, X. Deep residual learning. CVPR 2016. doi:10.1109/CVPR.2016.90\n\nAfter.\n",
            "After.",
        ),
    ],
)
def test_a_bibliography_is_no_prose(text: str, prose: str) -> None:
    markup = find_prose(text)
    assert words(markup) == prose
    assert "reference" in {r.kind for r in markup.regions}


@pytest.mark.parametrize(
    "text",
    [
        # Items that cite a paper in a sentence, with no mark of a publication, are prose.
        "- Bowman et al. (2016) introduced KL annealing for text autoencoders.\n",
        "- Kingma and Ba proposed Adam in 2014; it builds on RMSProp.\n",
        "- Vaswani et al. introduced the transformer in 2017.\n",
        # A "Further reading" section says what each source teaches: prose.
        "## Further reading\n\n- The Illustrated Transformer explains attention with pictures.\n",
        "## Literature review\n\nEarlier work relied on recurrent networks.\n",
    ],
)
def test_what_only_cites_or_reads_stays_prose(text: str) -> None:
    markup = find_prose(text)
    assert "reference" not in {r.kind for r in markup.regions}


def test_a_reference_gives_no_concept_and_no_evidence(
    tmp_path: Path, store: SQLiteStore, clock: StepClock
) -> None:
    # "arXiv" was a concept, and "Tutorial on variational autoencoders. arXiv preprint ..." evidence.
    folder = tmp_path / "lessons"
    folder.mkdir()
    (folder / "vae.md").write_text(
        "# Variational autoencoders\n\nA **variational autoencoder** is a generative model with a latent "
        "code. An **autoencoder** compresses its input into a code and rebuilds it.\n\n## References\n\n"
        "1. Kingma, D. P., & Welling, M. (2014). Auto-encoding variational Bayes. In *International "
        "Conference on Learning Representations*.\n2. Doersch, C. (2016). Tutorial on variational "
        "autoencoders. arXiv preprint arXiv:1606.05908.\n",
        encoding="utf-8",
    )
    ingest([folder], context(store, clock, CountingLLM()))
    concepts = {c.id for c in store.concepts()}
    assert "variational-autoencoder" in concepts and "arxiv" not in concepts
    assert not [span.quote for p in store.proposals() for span in p.evidence if "arXiv" in span.quote]


# A code name written bare in prose, with no backticks, is code.


def test_bare_code_names_are_code() -> None:
    text = (
        "A custom collate_fn merges samples; nn.Sequential builds on nn.Module. torch.compile and "
        "sklearn.ensemble.GradientBoostingClassifier are fast; std::vector holds items; read the .grad "
        "attribute and the sec_linear-regression label."
    )
    markup = find_prose(text)
    assert (
        words(markup)
        == "A custom merges samples; builds on . and are fast; holds items; read the attribute and the label."
    )
    assert {r.kind for r in markup.regions} == {"inline_code"}


@pytest.mark.parametrize(
    "text",
    [
        "Regularizers, e.g. dropout, i.e. noise, help U.S. and Ph.D. students.",
        "It costs 3.14 dollars on Python 3.10 with GPT-3.5 and Llama-2.7B.",
        "We train the model.The loss drops on all datasets.ONNX exports it.",  # no space after a full stop
        "A _regularizer_ is __often__ simple.",
        "See Section 3.2.1 and Fig. 4.",
    ],
)
def test_what_only_looks_like_a_code_name_stays_prose(text: str) -> None:
    markup = find_prose(text)
    assert markup.prose == text


def test_a_bare_code_name_gives_no_concept(tmp_path: Path, store: SQLiteStore, clock: StepClock) -> None:
    # "fn" (collate_fn), "nn" (nn.Module) and "compile" (torch.compile) were concepts, with edges.
    folder = tmp_path / "lessons"
    folder.mkdir()
    (folder / "loading.md").write_text(
        "# Data loading in PyTorch\n\nA **data loader** batches samples for training. The collate_fn "
        "argument merges a list of samples into a mini-batch; a custom collate_fn is part of most NLP "
        "pipelines. A nn.Sequential container chains modules; nn.Sequential builds on nn.Module. "
        "TorchScript and torch.compile are two ways to speed up a model; torch.compile builds on "
        "TorchDynamo.\n",
        encoding="utf-8",
    )
    ingest([folder], context(store, clock, CountingLLM()))
    concepts = {c.id for c in store.concepts()}
    assert "data-loader" in concepts
    assert not concepts & {"fn", "nn", "compile"}
    assert not [p for p in store.proposals() if {p.src, p.dst} & {"fn", "nn", "compile"}]


# Footnotes and roles: a footnote's mark and label are references, its text prose.


def test_a_footnote_is_prose_and_its_mark_and_label_are_not() -> None:
    text = (
        "Annealing helps[^a] and classes grow :cite:`Bridle.1990`.\n\n"
        "[^a]: Bowman et al. (2016) introduced KL annealing for text autoencoders.\n"
        "[^b]: It is part of most sentence autoencoders.\n\n"
        "    Its second paragraph is prose too.\n\n"
        "[^c]: Kingma, D. P., & Welling, M. (2014). Auto-encoding variational Bayes. arXiv:1312.6114.\n"
        '[^d]: See also Rezende, Mohamed & Wierstra (2014), "Stochastic backpropagation".\n'
        "[link]: https://example.org/x\n"
    )
    markup = find_prose(text)
    assert words(markup) == (
        "Annealing helps and classes grow . Bowman et al. (2016) introduced KL annealing for text "
        "autoencoders. It is part of most sentence autoencoders. Its second paragraph is prose too."
    )
    references = [text[r.start : r.end] for r in markup.regions if r.kind == "reference"]
    assert references[:4] == ["[^a]", ":cite:`Bridle.1990`", "[^a]: ", "[^b]: "]
    assert references[4].startswith("[^c]: Kingma") and references[5].startswith("[^d]: See also")
    # Each footnote is a block of its own: two never run together into one sentence.
    assert markup.prose[text.index("[^b]:")] == "\n"


# Definition lists: Pandoc's ("Term" over ":   What it is.") and HTML's (<dt>/<dd>) are read as one
# entry, its term over ":" and its definition, whose entry describes the term.

DEFINITIONS = """\
A variational autoencoder is a generative model. The reparameterization trick is a prerequisite for
training a VAE with backpropagation.

Reparameterization trick
:   Writing a sample as a deterministic function of the parameters and independent noise, so that
    gradients flow through the sampling step.

    Its second paragraph is prose too.

Variational inference
~   A family of methods that approximate an intractable posterior with a simpler distribution.
"""

HTML_DEFINITIONS = (
    "<html><body><article>\n<p>A variational autoencoder is a generative model. The reparameterization "
    "trick is a prerequisite for training a VAE with backpropagation.</p>\n<dl>\n"
    "<dt>Reparameterization trick</dt>\n<dd>Writing a sample as a deterministic function of the parameters "
    "and independent noise, so that gradients flow through the sampling step.</dd>\n"
    "<dt>Variational inference</dt><dd>A family of methods that approximate an intractable posterior with a "
    "simpler distribution.</dd>\n</dl>\n</article></body></html>\n"
)


def test_a_definition_lists_entry_is_its_term_over_its_definition() -> None:
    prose = find_prose(DEFINITIONS).prose
    assert "Reparameterization trick\n:   Writing a sample" in prose
    assert "Variational inference\n:   A family" in prose  # Pandoc's other mark, shown as ":"
    assert "    Its second paragraph is prose too." in prose  # no indented code
    html = find_prose(HTML_DEFINITIONS, "html").prose
    assert re.search(r"Reparameterization trick *\n: +Writing a sample", html), html
    assert re.search(r"Variational inference *\n: +A family", html), html
    # A line that opens on ":" after a blank line is no definition (d2l writes a table's caption so).
    caption = "Intro.\n\n: Example configuration space\n"
    assert find_prose(caption).prose == caption


@pytest.mark.parametrize("name", ["course.md", "course.html"])
def test_a_definition_lists_entry_describes_its_term(tmp_path: Path, name: str) -> None:
    # Found by a hostile run: "reparameterization trick" was described by "The reparameterization
    # trick is a prerequisite for training a VAE ..." (a relation, no description now), and the
    # definition list's entry for it in the same lesson was never read.
    (tmp_path / name).write_text(DEFINITIONS if name.endswith(".md") else HTML_DEFINITIONS, encoding="utf-8")
    done = extract_lesson(
        read_lesson(tmp_path / name), OfflineLLM(offline_handlers()), Registry([], {}), CURRICULUM
    )
    described = {concept.id: concept.description for concept in done.new_concepts}
    assert described["reparameterization-trick"] == (
        "Reparameterization trick: Writing a sample as a deterministic function of the parameters and "
        "independent noise, so that gradients flow through the sampling step."
    )
    assert described["variational-inference"].startswith("Variational inference: A family of methods")
