"""The offline concept extractor and the termhood model: junk refused, terms kept, acronyms resolved."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from agents.concepts import ConceptReply, KnownConcept
from agents.extraction import extract_lesson
from agents.offline import terms
from agents.offline.concepts import extract_concepts_offline, prose, vocabulary
from agents.offline.handlers import offline_handlers
from agents.registry import Registry
from agents.text import normalize_name
from magg_kg.lessons import read_lesson
from magg_kg.llm.offline import OfflineLLM
from magg_kg.vocabulary import CURRICULUM
from tests.gates.world import run_magg

NODE_TYPES = frozenset(CURRICULUM.node_types)

LESSON = """# Residual networks

A **residual connection** is a shortcut that adds the input of a block to its output, so that the
block learns a residual mapping. In practice, two inputs are needed for a residual connection. The *learning
rate* is the step size of gradient descent. This procedure requires a lot of care, and you can
try to compile it before executing it. Higher precision requires more data. Let us see how the
gradient will change; to us it is related to what we did before.

Training BERT on many GPUs requires high *bandwidth*, which is the amount of data a link moves
per second. Data moves between the CPU and the GPUs over PCIe (Peripheral Component Interconnect
Express). BERT uses an *attention mechanism*. *Softmax regression* is a kind of linear model,
and *k-means* is a clustering algorithm.
"""

JUNK = [
    "us",
    "we",
    "will",
    "care",
    "lot",
    "procedure",
    "two inputs",
    "more data",
    "higher precision",
    "compile it before executing it",
    "You can",
    "try",
]


def names(reply: ConceptReply) -> set[str]:
    """Every normalized name and alias of a reply."""
    return {normalize_name(form) for c in reply.concepts for form in (c.name, *c.aliases)}


def test_the_junk_of_the_issue_is_refused_by_the_model() -> None:
    for phrase in JUNK:
        assert not terms.is_term(phrase), phrase
        assert not terms.is_term(phrase, "emphasised"), phrase


def test_the_junk_of_the_issue_is_not_extracted_and_the_terms_are() -> None:
    found = names(extract_concepts_offline(LESSON, [], NODE_TYPES))
    assert not {normalize_name(phrase) for phrase in JUNK} & found
    assert not {"input", "data", "precision", "inputs"} & found
    kept = {"residual connection", "PCIe", "bandwidth", "BERT", "softmax regression", "learning rate"}
    kept |= {"attention mechanism", "k-means"}
    assert {normalize_name(term) for term in kept} <= found


def test_a_defined_term_is_taught_with_its_sentence_and_a_used_one_is_not() -> None:
    reply = extract_concepts_offline(LESSON, [], NODE_TYPES)
    by_name = {normalize_name(c.name): c for c in reply.concepts}
    connection = by_name["residual connection"]
    assert connection.role == "teaches"
    assert connection.description.startswith("A **residual connection** is a shortcut")
    assert connection.quote in LESSON
    assert by_name["attention mechanism"].role == "mentions"


GLOSSARY = """# Glossary

- **Replay memory:** A buffer that stores the agent's past transitions for training.
- **Target network**: Copy of the Q-network whose weights are updated every C steps.
- **Experience replay** - a way to reuse past transitions many times.
- **Sampling**: we perform actions and store the observed transitions.
- **Takeaway:** Removing duplicates is part of almost every project.

The replay memory breaks the correlation between consecutive transitions, and the target network
keeps the regression target fixed between updates. Sampling fills the replay memory for
experience replay.
"""


def test_a_glossary_entry_defines_a_term_the_lesson_writes_again_and_a_label_or_a_step_does_not() -> None:
    by_name = {normalize_name(c.name): c for c in extract_concepts_offline(GLOSSARY, [], NODE_TYPES).concepts}
    for term in ("replay memory", "target network", "experience replay"):
        assert by_name[term].role == "teaches", term
        assert by_name[term].description.startswith(f"- **{term.capitalize()}"), term
    # A step ("we perform ...") glosses nothing, though the lesson writes "Sampling" again; a label
    # written once ("Takeaway") is no concept.
    assert not by_name.get("sampling") or not by_name["sampling"].description
    assert "takeaway" not in by_name


def test_a_label_that_opens_its_sentence_said_once_is_no_concept() -> None:
    # A tutorial's "> 💡 **Pro tip:** ..." and an HTML callout's "<em>Pro tip:</em> ..." made "Pro
    # tip" a concept; a run-in label names the remark that follows, not a term.
    text = (
        "We clean the text first.\n\n💡 **Pro tip:** Always look at your data before you train.\n\n"
        "**Label smoothing**: we soften the targets, and label "
        "smoothing keeps the model from overconfidence. Use **weight decay**: it regularizes the network.\n"
    )
    found = {normalize_name(c.name) for c in extract_concepts_offline(text, [], NODE_TYPES).concepts}
    assert "pro tip" not in found
    # A label the chunk writes again is its topic; emphasis inside a sentence is no label.
    assert {"label smoothing", "weight decay"} <= found


@pytest.mark.parametrize(
    "phrase",
    ["residual connection", "softmax regression", "embedding matrix", "PCIe", "BERT", "softmax", "dropout"],
)
def test_technical_phrases_are_terms_on_their_own(phrase: str) -> None:
    assert terms.termhood(phrase) >= terms.THRESHOLD
    assert terms.is_term(phrase, "defined")


def test_everyday_compositions_need_the_lesson_to_define_them() -> None:
    assert not terms.is_term("coding example") and not terms.is_term("learning rate")
    assert terms.is_term("learning rate", "defined") and terms.is_term("learning rate", "emphasised")
    assert not terms.is_term("CNN layers") and terms.is_term("GPU memory")


def test_a_single_word_the_lesson_defines_is_a_term_in_either_number() -> None:
    text = (
        "### Hallucinations\n\nHallucinations are a term used to describe when an LLM produces content "
        "that is factually wrong.\n\nEach new model makes fewer hallucinations.\n"
    )
    names = {normalize_name(c.name) for c in extract_concepts_offline(text, [], NODE_TYPES).concepts}
    assert names & {"hallucination", "hallucinations"}
    # Named in the plural without a definition, an everyday count of things stays none.
    plain = "We count the properties of each model. The properties differ between models.\n"
    assert not {normalize_name(c.name) for c in extract_concepts_offline(plain, [], NODE_TYPES).concepts}


def test_a_hyphenated_compound_is_read_as_the_words_it_joins() -> None:
    # As one word, "fine-tuning" had the frequency of its everyday parts and looked like a bare
    # gerund ("evaluating"), so a lesson defining it named no concept.
    values = dict(zip(terms.FEATURES, terms.term_features("fine-tuning"), strict=True))
    spaced = dict(zip(terms.FEATURES, terms.term_features("fine tuning"), strict=True))
    assert values["hyphen"] == 1.0 and spaced["hyphen"] == 0.0
    assert {k: v for k, v in values.items() if k != "hyphen"} == {
        k: v for k, v in spaced.items() if k != "hyphen"
    }
    for term in ("fine-tuning", "self-attention", "chain-of-thought", "pre-training"):
        assert terms.is_term(term, "defined"), term
    for word in ("one-hot", "end-to-end", "built-in", "few-shot"):
        assert not terms.is_term(word, "defined"), word
    # A part of one letter or with a digit keeps the word whole: "k-means" is no "k" and "means".
    assert terms.term_features("k-means") != terms.term_features("k means")


def test_a_german_or_chinese_lesson_yields_only_english_technical_terms() -> None:
    german = (
        "# Neuronale Netze\n\nEin **neuronales Netz** besteht aus mehreren Schichten. Die "
        "*Aktivierungsfunktion* ReLU ist eine wichtige Voraussetzung für tiefe Netze. Das Training "
        "erfordert den Gradientenabstieg und viel Sorgfalt. Wir verwenden PyTorch und eine GPU, um das "
        "Modell zu trainieren. Die Lernrate ist ein Hyperparameter. Backpropagation ist eine "
        "Voraussetzung für das Training. Die Rechenleistung der GPU ist wichtig für große Sprachmodelle.\n"
    )
    chinese = (
        "# 神经网络\n\n**神经网络**由多个层组成。*激活函数* ReLU 是深度网络的重要前提。"
        "训练需要梯度下降和细心。我们使用 PyTorch 和 GPU 来训练模型。"
        "学习率是一个超参数。反向传播是训练的前提。"
        "GPU 的计算能力对大型语言模型很重要。\n"
    )
    english = {"relu", "pytorch", "gpu", "backpropagation"}
    for text in (german, chinese):
        found = names(extract_concepts_offline(text, [], NODE_TYPES))
        assert found <= english, found
    assert "gpu" in names(extract_concepts_offline(chinese, [], NODE_TYPES))


def test_blanked_code_and_math_split_phrases_and_yield_nothing() -> None:
    text = "The gradient matrix" + " " * 40 + "multiplication kernel is a kind of operator.\n"
    assert "gradient matrix multiplication kernel" not in names(
        extract_concepts_offline(text, [], NODE_TYPES)
    )
    raw = "The *loss* $\\mathbf{X}$ uses `torch.matmul(X, W)` and <b>bold</b>, see https://d2l.ai."
    assert len(prose(raw)) == len(raw)
    assert not names(extract_concepts_offline(raw, [], NODE_TYPES)) & {
        "mathbf",
        "torch",
        "matmul",
        "b",
        "d2l",
    }


def test_emphasis_that_continues_a_blanked_word_is_no_concept() -> None:
    # d2l writes "$K$*-fold cross-validation*": the math is blanked, and what the emphasis holds is
    # the rest of "K-fold", not a name ("fold cross-validation").
    text = "One popular solution is to employ $K$*-fold cross-validation*. We use *cross-validation* again."
    assert names(extract_concepts_offline(text, [], NODE_TYPES)) == {"cross validation"}


def test_acronyms_resolve_to_the_concept_they_abbreviate(tmp_path: Path) -> None:
    llm = OfflineLLM(offline_handlers())
    registry = Registry([], {})
    texts = {
        "a.md": "# Hardware\n\nA graphics processing unit (GPU) runs many threads. Data reaches the GPU "
        "over PCIe (Peripheral Component Interconnect Express).\n",
        "b.md": "# Use\n\nGPUs are a kind of accelerator. PCIe bandwidth limits how fast GPUs get data.\n",
    }
    for name, text in texts.items():
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        extract_lesson(read_lesson(path), llm, registry, CURRICULUM)
    gpu = registry.resolve("graphics processing unit")
    assert gpu is not None and {
        registry.resolve(n) for n in ("GPU", "GPUs", "graphics processing units")
    } == {gpu}
    pcie = registry.resolve("Peripheral Component Interconnect Express")
    assert pcie is not None and registry.resolve("PCIe") == pcie


def test_an_acronym_that_spells_a_function_word_names_its_concept_only_in_capitals(tmp_path: Path) -> None:
    # scikit-learn's guide defines "the Itakura-Saito (IS) divergence"; the alias "is" then named the
    # divergence in every sentence with the verb, and it got edges to whatever those sentences named.
    path = tmp_path / "nmf.md"
    path.write_text(
        "# Divergences\n\nOr, the Itakura-Saito (IS) divergence. The IS divergence suits audio. "
        "Itakura-Saito divergence needs positive data.\n",
        encoding="utf-8",
    )
    registry = Registry([], {})
    extract_lesson(read_lesson(path), OfflineLLM(offline_handlers()), registry, CURRICULUM)
    divergence = registry.resolve("Itakura-Saito divergence") or registry.resolve("Itakura-Saito")
    assert divergence is not None and registry.resolve("IS") == divergence
    assert [k.id for k in registry.known_in("PCA is used to decompose a dataset.")] == []
    assert divergence in [k.id for k in registry.known_in("The IS divergence is large.")]


def test_an_acronym_two_concepts_spell_means_the_one_the_lesson_names_in_full(tmp_path: Path) -> None:
    # scikit-learn's guide defines "Latent Dirichlet Allocation (LDA)" in one page, and its page on
    # Linear Discriminant Analysis writes "LDA" throughout: there, LDA is the classifier.
    lessons = {
        "a.md": "# Topics\n\n**Latent Dirichlet Allocation (LDA)** is a generative model for text corpora. "
        "LDA finds topics in Latent Dirichlet Allocation.\n",
        "b.md": "# Linear Discriminant Analysis\n\n**Linear discriminant analysis** is a classifier that "
        "fits one covariance matrix. Linear discriminant analysis is fast. LDA is fast.\n",
    }
    registry, llm = Registry([], {}), OfflineLLM(offline_handlers())
    for name, text in lessons.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
        extract_lesson(read_lesson(tmp_path / name), llm, registry, CURRICULUM)
    latent, linear = (
        registry.resolve("latent dirichlet allocation"),
        registry.resolve("linear discriminant analysis"),
    )
    assert latent is not None and linear is not None and registry.resolve("LDA") == latent
    prose = lessons["b.md"]
    senses, full = registry.senses(prose), registry.in_full(prose)
    assert {latent, linear} <= senses and linear in full and latent not in full
    named = [k.id for k in registry.known_in("LDA is fast.", senses=senses, full=full)]
    assert named == [linear]
    assert [k.id for k in registry.known_in("LDA is fast.", senses=registry.senses(lessons["a.md"]))] == [
        latent
    ]


def test_short_forms_spelled_inside_words_and_emphasised_resolve_too(tmp_path: Path) -> None:
    # "ResNet" and "HPO" are not the initials of their long forms, the long form may be in
    # emphasis, and a definition may give the short form in words ("abbreviated as"); each short
    # form still names the concept, and no short form comes of a phrase that does not spell it.
    text = (
        "# Networks\n\nAt the heart of the proposed *residual network* (*ResNet*) is a shortcut. "
        "*Hyperparameter optimization (HPO)* tunes the learning rate. ResNet is deep, and HPO is "
        "costly. *DenseNet* (dense convolutional network) extends ResNet. We then train a deep "
        "model (CNN) on many images. This network is commonly called a *multilayer perceptron*, "
        "often abbreviated as *MLP*. An MLP has layers.\n"
    )
    path = tmp_path / "a.md"
    path.write_text(text, encoding="utf-8")
    registry = Registry([], {})
    extract_lesson(read_lesson(path), OfflineLLM(offline_handlers()), registry, CURRICULUM)
    for long, short in (
        ("residual network", "ResNet"),
        ("hyperparameter optimization", "HPO"),
        ("dense convolutional network", "DenseNet"),
        ("multilayer perceptron", "MLP"),
    ):
        assert registry.resolve(long) is not None and registry.resolve(short) == registry.resolve(long)
    assert registry.resolve("CNN") is None or registry.resolve("CNN") != registry.resolve("deep model")


def test_known_concepts_are_reused_and_junk_known_ones_are_not() -> None:
    known = [
        KnownConcept(id="dropout", name="dropout", type="method"),
        KnownConcept(id="us", name="us", type="concept"),
    ]
    text = "Dropout is used in most networks. Dropout helps us a lot."
    assert "dropout" not in names(extract_concepts_offline(text, [], NODE_TYPES))
    found = names(extract_concepts_offline(text, known, NODE_TYPES))
    assert "dropout" in found and "us" not in found


def test_a_vocabulary_name_makes_a_concept_where_named_as_itself_not_as_a_word_of_a_longer_one() -> None:
    # "gradient" became a concept, with edges, of a lesson that wrote only "Gradient clipping helps
    # too" and "Gradient accumulation no longer skips ...": a vocabulary name that modifies another
    # noun names the compound, not itself.
    inside = "Gradient clipping helps too, and gradient accumulation saves memory.\n"
    assert "gradient" in vocabulary()
    assert "gradient" not in names(extract_concepts_offline(inside, [], NODE_TYPES))
    for alone in (
        "The tree is fitted to the negative gradient of the loss.\n",
        "In an RNN, gradients flow back through time.\n",
        "LSTM solves the vanishing gradient problem.\n",  # a generic head: the problem is the gradient's
    ):
        assert "gradient" in names(extract_concepts_offline(alone, [], NODE_TYPES)), alone
    # A concept the course has already is linked as before: what a lesson names with it is its own.
    known = [KnownConcept(id="gradient", name="gradient", type="math")]
    assert "gradient" in names(extract_concepts_offline(inside, known, NODE_TYPES))


def test_an_adjective_said_once_that_narrows_a_quantified_phrase_is_no_part_of_its_name() -> None:
    # "it is part of every serious softmax implementation" made "serious softmax implementation"
    # a concept: the cue's phrase counts as defined, and the longest tail passed the bar for that.
    text = (
        "Subtracting the maximum avoids overflow. This is known as the log-sum-exp trick, and it is "
        "part of every serious softmax implementation.\n"
    )
    found = names(extract_concepts_offline(text, [], NODE_TYPES))
    assert "serious softmax implementation" not in found
    assert "softmax implementation" in found
    # Outside a quantifier the adjective stays ("Indirect prompt injection is a kind of ..."), and
    # under one, when its words make a term or the chunk writes the phrase again.
    found = names(
        extract_concepts_offline(
            "Indirect prompt injection is a kind of prompt injection. Every linear regression builds "
            "on least squares. Instruction tuning is part of every large language model, and large "
            "language models need it.\n",
            [],
            NODE_TYPES,
        )
    )
    assert {"indirect prompt injection", "linear regression", "large language model"} <= found


def test_an_adjective_that_judges_a_concept_the_chunk_names_again_is_no_part_of_its_name() -> None:
    # The demo's "Model evaluation is a prerequisite for useful experiment tracking" made "useful
    # experiment tracking" a concept, with two edges into it: "useful" judges experiment tracking,
    # which the lesson names again and again, and names no kind of it.
    text = (
        "Experiment tracking records every run. Model evaluation is a prerequisite for useful experiment "
        "tracking, since logging the wrong metric is still logging the wrong metric. Experiment tracking "
        "keeps runs comparable.\n"
    )
    found = names(extract_concepts_offline(text, [], NODE_TYPES))
    assert "useful experiment tracking" not in found
    assert "experiment tracking" in found
    # A kind stays whole even when the chunk names its rest again: its words make a term, or its
    # adjective classifies ("large", "stochastic") rather than judges.
    found = names(
        extract_concepts_offline(
            "Gradient descent follows the gradient. Gradient descent is a prerequisite for stochastic "
            "gradient descent. A language model predicts tokens. Every language model is a prerequisite "
            "for the large language model too.\n",
            [],
            NODE_TYPES,
        )
    )
    assert {"stochastic gradient descent", "large language model"} <= found


def test_the_shipped_files_are_small_attributed_and_consistent() -> None:
    folder = Path(terms.__file__).parent
    model = json.loads((folder / "terms.json").read_text(encoding="utf-8"))
    assert tuple(model["features"]) == terms.FEATURES
    assert len(model["weights"]) == len(terms.FEATURES) and model["cues"]
    raw = json.loads((folder / "data" / "metacademy_vocabulary.json").read_text(encoding="utf-8"))
    assert "CC BY-SA 3.0" in raw["_license"] and "Metacademy" in raw["_attribution"]
    assert set(raw) == {"_license", "_attribution", "names"}
    assert "backpropagation" in vocabulary() and len(vocabulary()) > 200
    for path in (folder / "terms.json", folder / "data" / "metacademy_vocabulary.json"):
        assert path.stat().st_size < 64_000


def test_the_shipped_termhood_and_injection_models_are_what_the_build_command_makes(tmp_path: Path) -> None:
    # A change to how words are read (a singular, a dash) changes the training features: the
    # shipped files must then be rebuilt, or the model runs on features it was not fitted on.
    folder = Path(terms.__file__).parent
    for model in ("terms", "injection"):
        run_magg(["model", "build", "--only", model, "--out", str(tmp_path)])
        rebuilt = json.loads((tmp_path / f"{model}.json").read_text("utf-8"))
        shipped = json.loads((folder / f"{model}.json").read_text("utf-8"))
        assert set(rebuilt) == set(shipped), model
        for key, value in shipped.items():
            _assert_close(value, rebuilt[key], f"{model}.{key}")


def _assert_close(shipped: object, rebuilt: object, where: str) -> None:
    """Numbers equal up to rounding; a weight kept only above a cut-off may sit on either side of it."""
    if isinstance(shipped, dict) and isinstance(rebuilt, dict):
        for key in set(shipped) | set(rebuilt):
            a, b = shipped.get(key, 0.0), rebuilt.get(key, 0.0)
            small = isinstance(a, float | int) and isinstance(b, float | int) and max(abs(a), abs(b)) < 0.051
            if not (small and (key not in shipped or key not in rebuilt)):
                _assert_close(a, b, f"{where}.{key}")
    elif isinstance(shipped, list) and isinstance(rebuilt, list):
        assert len(shipped) == len(rebuilt), where
        for index, (a, b) in enumerate(zip(shipped, rebuilt, strict=True)):
            _assert_close(a, b, f"{where}[{index}]")
    elif isinstance(shipped, float) or isinstance(rebuilt, float):
        assert isinstance(shipped, float | int) and isinstance(rebuilt, float | int), where
        assert abs(shipped - rebuilt) <= 1e-3, f"{where}: shipped {shipped}, rebuilt {rebuilt}"
    else:
        assert shipped == rebuilt, where


def test_another_name_beside_an_emphasised_term_is_an_alias_and_two_things_are_not() -> None:
    def aliases(text: str) -> dict[str, list[str]]:
        reply = extract_concepts_offline(text, [], NODE_TYPES)
        return {c.name: c.aliases for c in reply.concepts}

    assert aliases("The score is assessed on a separate *validation dataset* (or *validation set*).")[
        "validation dataset"
    ] == ["validation set"]
    assert aliases("We denote the outcomes S and call it the *sample space* or *outcome space*.")[
        "sample space"
    ] == ["outcome space"]
    assert aliases("First, h(x) is known as the *underlying measure* or the\n*base measure*.")[
        "underlying measure"
    ] == ["base measure"]
    found = aliases("To regularize a network we use *dropout* or *weight decay*.")
    assert not any(found.values())


def test_underscore_emphasis_marks_terms_as_asterisks_do() -> None:
    # Markdown writes emphasis both ways; an underscore inside a word (an identifier) opens none.
    text = (
        "A __residual connection__ is a shortcut around a block. The _attention mechanism_ weighs "
        "its inputs, and we set max_len_value to 8."
    )
    reply = extract_concepts_offline(text, [], NODE_TYPES)
    by_name = {normalize_name(c.name): c for c in reply.concepts}
    assert by_name["residual connection"].role == "teaches"
    assert by_name["attention mechanism"].role == "mentions"
    assert not any("len" in name for name in by_name)


def test_a_marked_phrase_may_end_in_a_gerund_and_running_text_may_not() -> None:
    # Emphasis bounds a marked phrase, so its last gerund is its head ("function calling"); in
    # running text a gerund after a noun starts a clause ("a dataset consisting of ...").
    text = (
        "- **Zero-shot prompting**, this is the most basic form of prompting.\n"
        "- **Few-shot prompting**, this type of prompting gives the model examples.\n"
        "We train on a dataset consisting of images. We train on a dataset consisting of labels. "
        "We train on a dataset consisting of words."
    )
    found = names(extract_concepts_offline(text, [], NODE_TYPES))
    assert {normalize_name("Zero-shot prompting"), normalize_name("Few-shot prompting")} <= found
    assert not any("consisting" in name for name in found)


def test_a_gerund_that_closes_the_phrase_heads_it_and_a_plural_before_such_as_stays() -> None:
    # "tracking" and "tuning" end the phrase (a comma, "and", a verb follow): they are its head, so the
    # cue's argument is the whole compound; "models" before "such as" is no verb ("extracts").
    text = (
        "Model evaluation is a prerequisite for experiment tracking, since metrics are logged. "
        "Cross-validation is a prerequisite for hyperparameter tuning and model selection. "
        "The transformer is a prerequisite for pretrained language models such as BERT."
    )
    found = names(extract_concepts_offline(text, [], NODE_TYPES))
    assert {"experiment tracking", "hyperparameter tuning", "pretrained language model"} <= found
    assert not {"experiment", "hyperparameter", "pretrained language"} & found


def test_a_heading_that_names_a_term_is_taught_and_a_label_is_not() -> None:
    text = (
        "### What is cosine similarity?\n\nWe compare two vectors by cosine similarity of their angle.\n\n"
        "## Teacher Forcing\n\nWe feed the true previous token: teacher forcing speeds up training.\n\n"
        "## Study Buddy\n\nAn app we build.\n\n## Summary and Discussion\n\nWe saw two ideas.\n"
        "## Understanding Tokenization\n\nA tokenizer splits text.\n"
    )
    by_name = {normalize_name(c.name): c for c in extract_concepts_offline(text, [], NODE_TYPES).concepts}
    assert by_name["cosine similarity"].role == "teaches"
    assert by_name["cosine similarity"].quote == "### What is cosine similarity?"
    assert by_name["teacher forcing"].name == "teacher forcing"  # as the prose writes it
    assert not {"study buddy", "summary", "discussion", "summary and discussion"} & set(by_name)
    assert not any("tokenization" in name for name in by_name)  # the prose never writes the heading


def test_a_heading_the_prose_writes_only_inside_a_longer_name_is_no_concept() -> None:
    # A changelog's "# Changelog" over "The format is based on Keep a Changelog" made "Changelog" a
    # concept: the prose names another thing, a document's genre, not what the lesson teaches.
    text = (
        "# Changelog\n\nAll notable changes are listed here. The format is based on Keep a Changelog, "
        "and releases follow Semantic Versioning.\n\n## Gradient Clipping\n\nGradient clipping caps "
        "the norm. We add gradient clipping to the loop.\n"
    )
    found = {normalize_name(c.name) for c in extract_concepts_offline(text, [], NODE_TYPES).concepts}
    assert "changelog" not in found
    assert "gradient clipping" in found  # a sentence's first capital is the sentence's


def test_a_heading_that_says_what_to_do_is_no_concept_and_one_that_names_a_term_is() -> None:
    text = (
        "### Implement ARIMA\n\nIt's time to implement ARIMA! The ARIMA model fits the series.\n\n"
        "### Split Data\n\nNext we split data into train and test parts, as you will split data later.\n\n"
        "## Transfer Learning\n\nTransfer learning reuses a model; we use transfer learning here.\n"
    )
    found = {normalize_name(c.name) for c in extract_concepts_offline(text, [], NODE_TYPES).concepts}
    assert not {"implement arima", "split data"} & found  # the prose writes them as verb phrases
    assert {"arima", "transfer learning"} <= found


def test_a_heading_term_ends_where_its_acronym_says() -> None:
    # The Hugging Face course's "### Modern Large Language Models (LLMs)" made "modern Large
    # Language Models" a concept, and a prerequisite from "Large Language Models" to it.
    text = (
        "### Modern Recurrent Neural Networks (RNNs)\n\nModern recurrent neural networks keep a "
        "state. A modern recurrent neural network reads a sequence.\n"
    )
    by_name = {normalize_name(c.name): c for c in extract_concepts_offline(text, [], NODE_TYPES).concepts}
    assert by_name["recurrent neural network"].role == "teaches"
    assert not any(name.startswith("modern") for name in by_name)


def test_a_lesson_title_whose_words_the_prose_writes_apart_is_what_it_teaches() -> None:
    body = (
        "We turn scores into probabilities with the softmax. Unlike linear regression, the model "
        "predicts a class; regression of this kind fits the softmax outputs by maximum likelihood.\n"
    )
    by_name = {
        normalize_name(c.name): c
        for c in extract_concepts_offline(f"# Softmax Regression\n\n{body}", [], NODE_TYPES).concepts
    }
    assert by_name["softmax regression"].role == "teaches"
    assert by_name["softmax regression"].quote == "# Softmax Regression"
    # Only the title: a later heading is a section of the lesson, and a label's words are not the
    # prose's ("# Study Buddy" over a lesson that never writes "buddy").
    later = {
        normalize_name(c.name)
        for c in extract_concepts_offline(
            f"# Models\n\n## Softmax Regression\n\n{body}", [], NODE_TYPES
        ).concepts
    }
    assert "softmax regression" not in later
    label = {
        normalize_name(c.name)
        for c in extract_concepts_offline(
            "# Study Buddy\n\nA study app for the softmax.\n", [], NODE_TYPES
        ).concepts
    }
    assert "study buddy" not in label


def test_a_sentence_saying_what_a_phrase_is_teaches_it_when_the_chunk_writes_it_again() -> None:
    text = (
        "Knowledge distillation is a way to train a small model. It is cheap: knowledge distillation needs a "
        "teacher.\n\nThe main difference is a matter of taste. Deep learning is the subset of machine "
        "learning that stacks layers; deep learning needs data.\n\nThis is a test of the reader."
    )
    by_name = {normalize_name(c.name): c for c in extract_concepts_offline(text, [], NODE_TYPES).concepts}
    distillation = by_name["knowledge distillation"]
    assert distillation.role == "teaches"
    assert distillation.description == "Knowledge distillation is a way to train a small model."
    # The sentence's capital is not the name's when the chunk writes it in lower case.
    assert by_name["deep learning"].name == "deep learning" and by_name["deep learning"].role == "teaches"
    assert "main difference" not in by_name  # said once: no topic of the chunk
    assert not {"this", "test"} & set(by_name)


def test_the_genus_of_a_bare_is_a_said_once_is_no_concept_and_one_written_again_is() -> None:
    said = (
        "Miniconda is a lightweight installer for Python. Miniconda installs Conda, and Miniconda is small."
    )
    found = {normalize_name(c.name) for c in extract_concepts_offline(said, [], NODE_TYPES).concepts}
    assert "miniconda" in found and not {"lightweight installer", "installer"} & found
    once = "Adam is a stochastic optimizer with momentum. It uses minibatches."
    again = "Adam is a stochastic optimizer with momentum. A stochastic optimizer uses minibatches."
    for text, kept in ((once, False), (again, True)):
        found = {normalize_name(c.name) for c in extract_concepts_offline(text, [], NODE_TYPES).concepts}
        assert ("stochastic optimizer" in found) == kept


def test_a_phrase_said_once_beside_a_weak_cue_is_no_concept_and_one_beside_a_stated_relation_is() -> None:
    # A missing comma joins two noun phrases into one run: "its efficacy" and "momentum".
    fragment = "As one would expect, due to its efficacy momentum is a well-studied subject in optimization."
    used = "It is unclear when to use nonzero paddings unless artifacts occur."
    for text, junk in ((fragment, "efficacy momentum"), (used, "nonzero padding")):
        found = {normalize_name(c.name) for c in extract_concepts_offline(text, [], NODE_TYPES).concepts}
        assert junk not in found, text
    # Written again, the same phrase is a topic of the chunk; a cue that states a curriculum
    # relation defines both sides at once.
    again = f"{used} Nonzero paddings reflect the border instead."
    stated = "Nonzero paddings are a prerequisite for reflection padding."
    for text in (again, stated):
        found = {normalize_name(c.name) for c in extract_concepts_offline(text, [], NODE_TYPES).concepts}
        assert "nonzero padding" in found, text
