"""Question families on examples the classifier did not see: k-fold over the labelled bank.

    python bench/intent_folds.py [--folds 5] [--bank prompts/intents.yaml] [--new OTHER.yaml]

Each fold's examples are held out, the classifier is built from the rest (its model and its family
words), and each held-out example is classified twice: by the classifier alone and by
``intents.classify`` (the whole rule the agent uses). A held-out "unknown" counts as right when the
answer is "none" or no family. With ``--new``, the classifier is built from the whole bank and
only the examples of OTHER.yaml are asked (words it has never seen). Prints accuracy overall and
per family, and the confusions.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import torch

from agent import embeddings
from agent.builtin import classifier, intents
from agent.builtin.conversation import respell

OUT_OF_SCOPE = {"unknown", "none", None}


class _Memo:
    """The process's encoder, remembering sentences already embedded (folds share most examples)."""

    def __init__(self, enc: Any) -> None:
        self.enc = enc
        self.rows: dict[str, Any] = {}

    def encode(self, texts: list[str]) -> Any:
        new = [t for t in dict.fromkeys(texts) if t not in self.rows]
        if new:
            self.rows.update(zip(new, self.enc.encode(new)))
        return torch.stack([self.rows[t] for t in texts])


def _use(bank: dict[str, list[str]]) -> None:
    """Rebuild the classifier from ``bank`` (its examples and its family words)."""
    classifier.load_bank = lambda path=classifier.BANK: bank
    classifier.vocabulary.cache_clear()
    classifier.ranked.cache_clear()
    classifier._STATE.pop("index", None)
    classifier.warm()


def _right(family: str | None, said: str | None) -> bool:
    return family == said or (family == "unknown" and said in OUT_OF_SCOPE)


def _ask(cases: list[tuple[str, str]], tally: dict[str, list[tuple[str, str, str | None]]]) -> None:
    for family, question in cases:
        alone = classifier.ranked(question)[0]
        whole, _ = intents.classify(respell(question))
        tally["classifier"].append((family, question, alone))
        tally["agent"].append((family, question, whole.name if whole else None))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--folds", type=int, default=5)
    ap.add_argument("--bank", type=Path, default=classifier.BANK)
    ap.add_argument("--new", type=Path, help="ask only these examples, the classifier built from --bank")
    args = ap.parse_args()
    enc = embeddings.encoder()
    if enc is None:
        sys.exit("sentence embeddings unavailable")
    embeddings._STATE["encoder"] = _Memo(enc)
    bank = classifier.load_bank(args.bank)
    tally: dict[str, list[tuple[str, str, str | None]]] = {"classifier": [], "agent": []}
    start = time.perf_counter()
    if args.new:
        _use(bank)
        _ask([(f, q) for f, qs in classifier.load_bank(args.new).items() for q in qs], tally)
    else:
        for k in range(args.folds):
            train = {f: [q for i, q in enumerate(qs) if i % args.folds != k] for f, qs in bank.items()}
            _use({f: qs for f, qs in train.items() if qs})
            _ask([(f, q) for f, qs in bank.items() for i, q in enumerate(qs) if i % args.folds == k], tally)
            print(f"fold {k + 1}/{args.folds} done at {time.perf_counter() - start:.0f} s", flush=True)
    print(f"{len(tally['agent'])} questions in {time.perf_counter() - start:.0f} s")
    for who, rows in tally.items():
        right = sum(_right(f, s) for f, _, s in rows)
        print(f"\n{who}: {right}/{len(rows)} ({right / len(rows):.1%}) right on examples it did not see")
        per: dict[str, list[bool]] = {}
        for f, _, s in rows:
            per.setdefault(f, []).append(_right(f, s))
        print("  " + "  ".join(f"{f} {sum(v)}/{len(v)}" for f, v in sorted(per.items())))
        wrong = Counter((f, s) for f, _, s in rows if not _right(f, s))
        print("  confusions: " + ", ".join(f"{f}->{s} {n}" for (f, s), n in wrong.most_common(12)))


if __name__ == "__main__":
    main()
