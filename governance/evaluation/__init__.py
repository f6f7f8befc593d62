"""The evaluation harness: replay, ablation, scorecard, benchmarks and their data loaders.

Nothing in the admission path imports it; the command line (``magg bench ...``) and
``benchmarks/`` call it as functions. It sits inside ``governance`` because it drives the
governed pipeline (admission, the gate, question answering) on labelled data.

Data loaders
    :mod:`~governance.evaluation.replay` (Metacademy, and the labelled candidate set built from it),
    :mod:`~governance.evaluation.prerequisite_data` (LectureBank, AL-CPL),
    :mod:`~governance.evaluation.scierc` (SciERC), :mod:`~governance.evaluation.multihop`
    (MuSiQue, HotpotQA, with their global baseline and scores),
    :mod:`~governance.evaluation.curriculum_questions` (typed questions from a gold graph).
Runs
    :mod:`~governance.evaluation.ablation` (the replay ablation, with
    :mod:`~governance.evaluation.ablation_bench` and :mod:`~governance.evaluation.ablation_gates`),
    :mod:`~governance.evaluation.scierc_bench`, :mod:`~governance.evaluation.qa_benchmark`.
Scores
    :mod:`~governance.evaluation.scorecard`, :mod:`~governance.evaluation.triple_score`,
    :mod:`~governance.evaluation.qa_scoring`.
"""
