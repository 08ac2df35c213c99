"""Label Studio interop: flags as tasks (scores as predictions) and a Label Studio export
back into review decisions.

A task's ``data`` holds the flag (id, rule, plain-words rule, intent, sentences, scores);
its one prediction carries the judge's view — Accept when the flagged pair's scores say yes —
with ``model_version`` = the scorer signature, so Label Studio shows which judge spoke.
:data:`LABEL_CONFIG` is the matching labeling interface (paste it into the project
settings). On import, an annotation's ``decision`` choice (Accept, Reject, Skip) becomes a
decision by its annotator at its time; ``wrong_translation`` names the target of a cond5
reject, and a ``note`` text area, if filled, becomes the decision's note.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ..errors import CorpusError, UsageError
from ..graph.checker import RULES
from ..judge.verdict import decision
from .store import ACTIONS, ReviewStore, effects

__all__ = ["LABEL_CONFIG", "import_annotations", "tasks"]

LABEL_CONFIG = """<View>
  <Header value="$rule: $rule_text"/>
  <Text name="intent" value="$intent"/>
  <Text name="sentences" value="$sentences_text"/>
  <Text name="scores" value="$scores_text"/>
  <Choices name="decision" toName="sentences" choice="single" showInline="true">
    <Choice value="Accept"/><Choice value="Reject"/><Choice value="Skip"/>
  </Choices>
  <TextArea name="wrong_translation" toName="sentences" maxSubmissions="1"
            placeholder="cond5 reject: the wrong sentence"/>
  <TextArea name="note" toName="sentences" maxSubmissions="1"/>
</View>
"""

_CHOICE = {"Accept": "accept", "Reject": "reject", "Skip": "skip"}


def _judge_says_yes(flag: dict) -> bool | None:
    """What the judge says about the flagged pair (see review.effects' table): its verdict for
    an alignment (none while uncertain), the scores for a paraphrase."""
    t = flag["threshold"]
    align = [x for x in flag["scores"] if x["kind"] == "align"]
    if flag["rule"] in ("gold_disagreement", "cond6"):
        said = align[0 if flag["rule"] == "gold_disagreement" else 1]
        if said.get("verdict"):
            return decision(said["verdict"])
        return None if said["score"] is None else said["score"] > t
    para = [s["score"] for s in flag["scores"] if s["kind"] == "para"]
    if flag["rule"] in ("cond5", "conflict") and para and None not in para:
        return all(x > t for x in para)
    return None


def tasks(store: ReviewStore) -> list[dict[str, Any]]:
    """Every flag of ``store`` as a Label Studio task with the judge's prediction."""
    out = []
    for n, f in enumerate(store.flags(), 1):
        intent = "; ".join(i.get("canonical") or " / ".join(i.get("written", []))
                           for i in f["intents"])
        data = {"flag_id": f["flag_id"], "rule": f["rule"], "rule_text": RULES[f["rule"]],
                "explanation": f["explanation"], "intent": intent,
                "sentences": [s["text"] for s in f["sentences"]],
                "sentences_text": "\n".join(f"{k}. {s['text']}"
                                            for k, s in enumerate(f["sentences"], 1)),
                "scores_text": "\n".join(f"{s['kind']}: PLUIE({s['a']} → {s['b']}) = "
                                         f"{s['score']}" + (f"; verdict {s['verdict']}: "
                                                            + "; ".join(s["reasons"])
                                                            if s.get("verdict") else "")
                                         for s in f["scores"]),
                "signature": f["signature"],
                "suggested_nile": f.get("suggested_nile") or ""}
        task: dict[str, Any] = {"id": n, "data": data, "predictions": []}
        says = _judge_says_yes(f)
        if says is not None:
            score = max((abs(s["score"]) for s in f["scores"] if s["score"] is not None),
                        default=0.0)
            task["predictions"].append({
                "model_version": f["signature"], "score": score,
                "result": [{"from_name": "decision", "to_name": "sentences", "type": "choices",
                            "value": {"choices": ["Accept" if says else "Reject"]}}]})
        out.append(task)
    return out


def _reviewer(annotation: dict) -> str:
    who = annotation.get("completed_by")
    if isinstance(who, dict):
        return str(who.get("email") or who.get("username") or who.get("id") or "label-studio")
    return f"label-studio user {who}" if who is not None else "label-studio"


def import_annotations(store: ReviewStore, path: str | Path) -> int:
    """Record the decisions of a Label Studio JSON export, all or none; returns how many
    are new (an export imported twice records nothing the second time). Tasks whose flag is
    not in the store, annotations without a decision choice and malformed tasks are named
    in the error (nothing is recorded then)."""
    path = Path(path)
    try:
        exported = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as e:
        raise CorpusError(f"{path}: not a Label Studio JSON export: {e}") from None
    if not isinstance(exported, list):
        raise CorpusError(f"{path}: a Label Studio JSON export is a list of tasks")
    try:
        pending = _pending(store, path, exported)
    except (AttributeError, TypeError, KeyError, IndexError) as e:
        raise CorpusError(f"{path}: not a Label Studio JSON export of nile-align tasks "
                          f"({type(e).__name__}: {e}); nothing was imported") from None
    new = 0
    with store.batch():
        for flag_id, action, reviewer, note, answer, when in pending:
            now = store.current(flag_id)
            if now and (now["status"], now["reviewer"], now["note"], now["decided_at"]) == (
                    ACTIONS[action], reviewer, note, when or now["decided_at"]):
                continue  # imported before: the same export twice changes nothing
            store.decide(flag_id, action, reviewer=reviewer, note=note, answer=answer,
                         decided_at=when)
            new += 1
    return new


def _pending(store: ReviewStore, path: Path, exported: list) -> list[tuple]:
    """The decisions of an export, every one checked before any is recorded."""
    pending = []
    for n, task in enumerate(exported, 1):
        flag_id = (task.get("data") or {}).get("flag_id")
        if not flag_id:
            raise CorpusError(f"{path}: task {n} has no data.flag_id (not made by nile-align)")
        for ann in sorted(task.get("annotations") or [],
                          key=lambda a: a.get("updated_at") or a.get("created_at") or ""):
            if ann.get("was_cancelled"):
                continue
            values = {r.get("from_name"): r.get("value", {}) for r in ann.get("result", [])}
            choices = values.get("decision", {}).get("choices") or []
            if not choices or choices[0] not in _CHOICE:
                raise UsageError(f"{path}: task {n} (flag {flag_id}): an annotation without an "
                                 "Accept/Reject/Skip decision choice")
            target = (values.get("wrong_translation", {}).get("text") or [None])[0]
            note = (values.get("note", {}).get("text") or [None])[0]
            answer = {"target": target} if target else {}
            try:
                effects(store.flag(flag_id), _CHOICE[choices[0]], answer)
            except UsageError as e:
                raise UsageError(f"{path}: task {n} (flag {flag_id}): {e}") from None
            pending.append((flag_id, _CHOICE[choices[0]], _reviewer(ann), note, answer,
                            ann.get("updated_at") or ann.get("created_at")))
    return pending
