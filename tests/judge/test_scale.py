"""Scale-out: shards merged equal the unsharded run, mismatched signatures are refused, and
the Ray engine (a local cluster started in the test, 2 CPU workers, the tiny random model)
returns exactly the single-process scores in input order, even when a worker is killed."""

from __future__ import annotations

import os
import signal
import threading
import time

import numpy as np
import pandas as pd
import pytest

from nile_align.cli import main
from nile_align.errors import UsageError
from nile_align.judge.scale import merge_parts, pair_id, parse_shard, shard_mask
from nile_align.judge.scoring import Scorer


@pytest.fixture(scope="module")
def pairs(tiny_corpus):
    """``pairs(n, seed=0)``: ``n`` pairs of the tiny corpus' texts, some repeated (as real
    corpora have)."""
    texts = sorted(set(tiny_corpus))
    words = " ".join(texts).split()

    def make(n: int, seed: int = 0) -> pd.DataFrame:
        rng = np.random.default_rng(seed)
        a = [" ".join(rng.choice(words, size=rng.integers(3, 9))) for _ in range(n)]
        b = [" ".join(rng.choice(words, size=rng.integers(3, 9))) for _ in range(n)]
        return pd.DataFrame({"id": range(n), "a": a, "b": b})

    return make


def test_shard_keys_are_stable_and_disjoint(pairs):
    frame = pairs(300)
    assert pair_id("x", "y") == pair_id("x", "y") != pair_id("y", "x")
    masks = [shard_mask(frame.copy(), a="a", b="b", shard=(k, 4)) for k in range(1, 5)]
    assert (sum(m.astype(int) for m in masks) == 1).all()  # every pair in exactly one shard
    assert all(40 < m.sum() < 110 for m in masks)          # and the shards are balanced
    assert parse_shard("2/8") == (2, 8)
    for bad in ("0/4", "5/4", "2", "a/b"):
        with pytest.raises(UsageError, match="K/N"):
            parse_shard(bad)


def test_four_shards_merged_equal_the_unsharded_run(tiny_dir, tmp_path, capsys, pairs):
    frame = pairs(120)
    frame = pd.concat([frame, frame.iloc[:5]], ignore_index=True)  # duplicate rows stay
    frame.to_csv(tmp_path / "pairs.csv", index=False)
    common = ["score", str(tmp_path / "pairs.csv"), "--model", str(tiny_dir), "-q",
              "--cache", str(tmp_path / "cache.sqlite")]
    assert main([*common, "--out", str(tmp_path / "whole.jsonl")]) == 0
    parts = [tmp_path / f"scores.part-{k}-of-4.jsonl" for k in range(1, 5)]
    for k in range(1, 5):
        assert main([*common, "--shard", f"{k}/4", "--out", str(parts[k - 1])]) == 0
    sizes = [len(p.read_text().splitlines()) for p in parts]
    assert sum(sizes) == len(frame) and min(sizes) > 0
    # A part given twice (a re-run) counts once.
    assert main(["merge", *map(str, parts), str(parts[0]), "--out",
                 str(tmp_path / "merged.jsonl")]) == 0
    whole = pd.read_json(tmp_path / "whole.jsonl", lines=True)
    merged = pd.read_json(tmp_path / "merged.jsonl", lines=True)
    pd.testing.assert_frame_equal(merged, whole)
    # The default part name, and stdout as JSON Lines.
    os.chdir(tmp_path)
    assert main([*common, "--shard", "2/4"]) == 0
    assert (tmp_path / "scores.part-2-of-4.jsonl").read_text() == parts[1].read_text()
    capsys.readouterr()
    assert main(["merge", *map(str, parts)]) == 0
    assert len(capsys.readouterr().out.splitlines()) == len(frame)


def test_merge_refuses_mismatched_signatures_and_foreign_files(tiny_dir, tmp_path, capsys, pairs):
    frame = pairs(40)
    frame.to_csv(tmp_path / "pairs.csv", index=False)
    common = ["score", str(tmp_path / "pairs.csv"), "--model", str(tiny_dir), "-q",
              "--no-cache"]
    assert main([*common, "--shard", "1/2", "--out", str(tmp_path / "p1.csv")]) == 0
    assert main([*common, "--shard", "2/2", "--out", str(tmp_path / "p2.csv"),
                 "--threshold", "0.5"]) == 0
    with pytest.raises(UsageError, match="different signatures"):
        merge_parts([tmp_path / "p1.csv", tmp_path / "p2.csv"])
    assert main(["merge", str(tmp_path / "p1.csv"), str(tmp_path / "p2.csv")]) == 2
    err = capsys.readouterr().err
    assert "T:0.5" in err or "0.5" in err
    with pytest.raises(UsageError, match="not a part"):
        merge_parts([tmp_path / "pairs.csv"])


@pytest.fixture(scope="module")
def ray_scorer(tiny_dir):
    # Only the Ray tests need Ray: the shard and merge tests above run without it.
    try:
        import ray
    except ImportError:
        if os.environ.get("NILE_ALIGN_REQUIRE_RAY"):
            pytest.fail("ray is missing; `make test` installs the [ray] extra")
        pytest.skip("ray is missing (`make test` installs the [ray] extra)")
    from nile_align.judge.scale import RayScorer

    # A local cluster inside the test: 2 CPUs, 2 workers, one tiny model each.
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False,
             configure_logging=False)
    scorer = RayScorer(workers=2, model=str(tiny_dir), cache=None)
    yield scorer
    scorer.close()
    ray.shutdown()


def test_ray_returns_the_single_process_scores_in_input_order(ray_scorer, tiny_dir, pairs):
    frame = pairs(2000, seed=1)
    local = Scorer(str(tiny_dir), cache=None)
    expected = local.score_frame(frame, a="a", b="b")
    got = ray_scorer.score_frame(frame, a="a", b="b")
    assert str(ray_scorer.signature("net")) == expected["signature"][0]
    np.testing.assert_array_equal(got["score"].to_numpy(), expected["score"].to_numpy())
    pd.testing.assert_frame_equal(got, expected)
    assert got.attrs["nile_align"]["scored"] == expected.attrs["nile_align"]["scored"]


def test_ray_survives_a_killed_worker(ray_scorer, tiny_dir, pairs):
    frame = pairs(2000, seed=2)
    expected = Scorer(str(tiny_dir), cache=None).score(a=frame["a"], b=frame["b"])
    victim = ray_scorer.worker_pids()[0]

    def kill_soon() -> None:
        time.sleep(0.3)  # mid-run: chunks are queued on both workers
        os.kill(victim, signal.SIGKILL)

    threading.Thread(target=kill_soon).start()
    got = ray_scorer.score_detailed(a=frame["a"], b=frame["b"])
    assert victim not in ray_scorer.worker_pids()  # the worker was restarted
    assert len(got.scores) == len(frame)           # every pair once, in input order
    np.testing.assert_array_equal(got.scores, expected)


def test_engine_ray_without_ray_names_the_extra(monkeypatch, tmp_path, capsys):
    import builtins

    real = builtins.__import__

    def no_ray(name, *args, **kwargs):
        if name == "ray":
            raise ImportError("no ray")
        return real(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_ray)
    pd.DataFrame({"a": ["x"], "b": ["y"]}).to_csv(tmp_path / "p.csv", index=False)
    assert main(["score", str(tmp_path / "p.csv"), "--engine", "ray", "-q"]) == 2
    assert "pip install 'nile-align[ray]'" in capsys.readouterr().err
