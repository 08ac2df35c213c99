"""Scoring at scale: shards any machine can score on its own, merged afterwards, and a Ray
engine that spreads one scoring job over a cluster's workers.

Shards need no engine: a pair belongs to shard ``k`` of ``N`` by a hash of its texts
(:func:`pair_id`), so every machine given the same input and ``--shard k/N`` scores its
own disjoint part, resumably through the score cache; :func:`merge_parts` joins the parts
and refuses parts scored by different judges (signatures).

The Ray engine (:class:`RayScorer`) keeps one :class:`~nile_align.judge.scoring.Scorer` per Ray
actor (the model is loaded once per worker) and sends it blocks of distinct pairs. Actors
are created with unlimited restarts and task retries, so Ray itself re-runs the blocks of
a worker that dies on a restarted one; results are put back in input order by block, so
every pair appears exactly once. Ray is an optional extra: ``pip install 'nile-align[ray]'``.
"""

from __future__ import annotations

import dataclasses
import hashlib
import os
import socket
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import UsageError

__all__ = ["RayScorer", "merge_parts", "pair_id", "parse_shard", "probe", "shard_mask",
           "start_ray", "write_frame"]

#: Columns a shard part adds to the scored rows (and merge removes): the row's position in
#: the whole input and the pair's shard key.
PART_COLUMNS = ("part_row", "pair_key")


def pair_id(a: Any, b: Any, *extra: Any) -> str:
    """A stable key of a pair's texts (16 hex digits), the same on every machine."""
    text = "\x1f".join("" if v is None else str(v) for v in (a, b, *extra))
    return hashlib.sha1(text.encode("utf-8")).hexdigest()[:16]


def parse_shard(text: str) -> tuple[int, int]:
    """``"k/N"`` (1 ≤ k ≤ N) as (k, N), with a clear error otherwise."""
    k, sep, n = text.partition("/")
    if not (sep and k.isdigit() and n.isdigit() and 1 <= int(k) <= int(n)):
        raise UsageError(f"--shard {text!r}: write K/N with 1 <= K <= N, e.g. --shard 2/8")
    return int(k), int(n)


def shard_mask(frame, *, a: str, b: str, shard: tuple[int, int],
               extra: Sequence[str] = ()) -> np.ndarray:
    """Which rows of ``frame`` belong to shard ``(k, N)``; also adds the part columns
    (``part_row``: position in the whole input, ``pair_key``: :func:`pair_id`)."""
    k, n = shard
    columns = [frame[c].tolist() for c in (a, b, *extra)]
    keys = [pair_id(*values) for values in zip(*columns)]
    frame["part_row"] = np.arange(len(frame))
    frame["pair_key"] = keys
    return np.array([int(key, 16) % n == k - 1 for key in keys], dtype=bool)


def _read_part(path: Path):
    from ..corpus import read_table

    frame = read_table(str(path))
    missing = [c for c in (*PART_COLUMNS, "signature") if c not in frame.columns]
    if missing:
        raise UsageError(f"{path}: not a part of `nile-align score --shard` (no "
                         f"{', '.join(missing)} column)")
    return frame


def merge_parts(paths: Sequence[str | Path]):
    """The parts' rows in input order, each input row once, without the part columns: the
    table an unsharded run writes. Raises when the parts were scored with different
    signatures (another model, template, method or threshold)."""
    import pandas as pd

    if not paths:
        raise UsageError("give the part files to merge")
    frames: list = []
    signatures: dict[str, list[str]] = {}
    for path in map(Path, paths):
        frame = _read_part(path)
        for sig in frame["signature"].dropna().unique():
            signatures.setdefault(str(sig), []).append(str(path))
        frames.append(frame)
    if len(signatures) > 1:
        listing = "\n".join(f"  {sig}: {', '.join(files)}" for sig, files in signatures.items())
        raise UsageError("the parts were scored with different signatures; merging them would "
                         f"mix judges:\n{listing}")
    merged = pd.concat(frames, ignore_index=True)
    merged = merged.drop_duplicates(subset=list(PART_COLUMNS), keep="first")
    merged = merged.sort_values("part_row", kind="stable").reset_index(drop=True)
    return merged.drop(columns=list(PART_COLUMNS))


def start_ray(address: str | None, *, object_store_gib: float | None = None,
              env: dict[str, str] | None = None) -> tuple[Any, bool]:
    """Ray, connected to the cluster at ``address`` (``ray start --head`` prints it; checked
    first: :func:`probe`) or, for None, to a local one started here with an object store of
    ``object_store_gib`` (default: Ray's), this job's workers with the variables ``env``;
    also whether this call started it (and so should shut it down). A process already
    connected stays as it is."""
    try:
        import ray
    except ImportError:
        raise UsageError("--engine ray needs Ray: pip install 'nile-align[ray]'") from None
    if ray.is_initialized():
        return ray, False
    probe(address)
    options: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False,
                               "configure_logging": False}
    if address is None and object_store_gib:
        options["object_store_memory"] = int(object_store_gib * 2**30)
    if env:
        options["runtime_env"] = {"env_vars": dict(env)}
    try:
        ray.init(address=address, **options)
    except (ConnectionError, TimeoutError, ValueError, RuntimeError) as e:
        raise UsageError(f"cannot reach the Ray cluster at {address}: {e} (start one with "
                         f"`ray start --head`, or leave out --address for a local one)") from None
    return ray, True


def probe(address: str | None, timeout: float = 5.0) -> None:
    """Fail at once, with the reason, when a cluster's address does not answer (Ray itself
    retries an unreachable address for minutes)."""
    if address in (None, "auto", "local"):
        return
    host, _, port = address.split("://", 1)[-1].rpartition(":")
    if not host or not port.isdigit():
        raise UsageError(f"--address {address!r}: write HOST:PORT (the head node's GCS port, "
                         f"e.g. 10.0.0.5:6379) or ray://HOST:PORT")
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=timeout).close()
    except OSError as e:
        raise UsageError(f"cannot reach the Ray cluster at {address}: "
                         f"{e.strerror or e or 'no answer'} (is `ray start --head` running "
                         f"there? leave out --address for a local cluster)") from None


class _Worker:
    """A Ray actor's state: one Scorer (no cache: the driver keeps it), loaded once, on the
    threads Ray gave this worker."""

    def __init__(self, options: dict, threads: int):
        import torch

        from .scoring import Scorer

        torch.set_num_threads(max(1, threads))
        self.scorer = Scorer(**{**options, "cache": None})

    def pid(self) -> int:
        return os.getpid()

    def signature(self, template: str, method: str) -> Any:
        return self.scorer.signature(template, method)

    def score_block(self, template: str, method: str, block: list[tuple]) -> tuple:
        values = np.full(len(block), np.nan)

        def on_batch(positions: list[int], scores: list[float]) -> None:
            values[positions] = scores

        failed = self.scorer.score_block(template, method, block, on_batch)
        return values, failed


class RayScorer:
    """A Scorer-like front for ``workers`` Ray actors, each holding a Scorer built from
    ``scorer_options`` (the keyword arguments of :class:`~nile_align.judge.scoring.Scorer`).

    The driver deduplicates pairs, reads and writes the score cache, and sends the same
    blocks of distinct pairs a single process would score (``scoring.BLOCK``): the scores
    are bit-identical to a single process. ``address``: an existing cluster (``ray start
    --head`` prints it); None starts a local one. ``gpus_per_worker``: GPUs each actor
    reserves. Use it where a Scorer goes: ``score``, ``score_detailed``, ``score_frame``,
    ``signature``, and ``build_graph``/``run_check``.
    """

    def __init__(self, *, workers: int = 2, address: str | None = None,
                 gpus_per_worker: float = 0, threads_per_worker: int | None = None,
                 **scorer_options: Any):
        from .scoring import open_cache

        if workers < 1:
            raise UsageError("--workers must be at least 1")
        self.ray, self._started = start_ray(address)
        ray = self.ray
        cpus = int(ray.cluster_resources().get("CPU", 1))
        threads = threads_per_worker or max(1, cpus // workers)
        actor = ray.remote(num_cpus=min(threads, cpus / workers), num_gpus=gpus_per_worker,
                           max_restarts=-1, max_task_retries=-1)(_Worker)
        self.workers = [actor.remote(scorer_options, threads) for _ in range(workers)]
        self.threshold = float(scorer_options.get("threshold", 0.0))
        self.templates_dir = scorer_options.get("templates")
        self.cache = open_cache(scorer_options.get("cache", "default"))
        self._signatures: dict[tuple[str, str], Any] = {}

    def close(self) -> None:
        """Stop the actors (and the local Ray instance this object started)."""
        for w in self.workers:
            self.ray.kill(w)
        self.workers = []
        if self._started:
            self.ray.shutdown()

    def __enter__(self) -> RayScorer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def worker_pids(self) -> list[int]:
        """The process ids of the actors (tests kill one to check fault tolerance)."""
        return self.ray.get([w.pid.remote() for w in self.workers])

    def signature(self, template: Any = "net", method: str = "pluie",
                  threshold: float | None = None) -> Any:
        key = (str(getattr(template, "name", template)), method)
        if key not in self._signatures:
            self._signatures[key] = self.ray.get(self.workers[0].signature.remote(*key))
        return dataclasses.replace(self._signatures[key], threshold=self.threshold
                                   if threshold is None else float(threshold))

    def score(self, *, a: Sequence[str], b: Sequence[str], template: Any = "net",
              method: str = "pluie", extra: Mapping[str, Sequence[str | None]] | None = None,
              progress: bool | None = None) -> np.ndarray:
        """PLUIE(A, B) per pair, in input order, computed on the workers."""
        return self.score_detailed(a=a, b=b, template=template, method=method, extra=extra,
                                   progress=progress).scores

    def score_detailed(self, *, a: Sequence[str], b: Sequence[str], template: Any = "net",
                       method: str = "pluie",
                       extra: Mapping[str, Sequence[str | None]] | None = None,
                       progress: bool | None = None) -> Any:
        """Like :meth:`Scorer.score_detailed`: blocks go round-robin to the workers, results
        are stored (and cached) as they come back; one progress bar counts pairs."""
        from tqdm.auto import tqdm

        from .scoring import ScoreJob
        from .templates import get_template

        t = get_template(template, self.templates_dir)
        job = ScoreJob.make(t, self.signature(t.name, method), a, b, extra, self.cache)
        blocks = job.blocks()
        refs = {self.workers[n % len(self.workers)].score_block.remote(t.name, method, block): n
                for n, block in enumerate(blocks)}
        bar = tqdm(total=len(job.todo), desc=f"score {t.name} (ray, {len(self.workers)} "
                   "workers)", unit="pair", disable=progress if progress is None else not progress)
        pending = list(refs)
        try:
            while pending:
                done, pending = self.ray.wait(pending, num_returns=1)
                for ref in done:
                    block = blocks[refs[ref]]
                    values, failed = self.ray.get(ref)
                    ok = [p for p in range(len(block)) if p not in failed]
                    job.store([block[p] for p in ok], [float(values[p]) for p in ok])
                    for p, message in failed.items():
                        job.fail(block[p], message)
                    bar.update(len(block))
        finally:
            bar.close()
        return job.result

    def score_frame(self, frame, **kwargs: Any):
        """Like :meth:`Scorer.score_frame`, on the workers."""
        from .scoring import score_frame

        return score_frame(self, frame, **kwargs)


def write_frame(frame, path: str | Path) -> None:
    """A scored frame to ``path`` (.csv or .jsonl by suffix), via a temporary file so that
    a crash never leaves half a part."""
    path = Path(path)
    tmp = path.with_name(path.name + ".tmp")
    if path.suffix == ".csv":
        frame.to_csv(tmp, index=False)
    elif path.suffix in (".jsonl", ".json"):
        text = frame.to_json(orient="records", lines=True, force_ascii=False)
        tmp.write_text(text if not text or text.endswith("\n") else text + "\n",
                       encoding="utf-8")
    else:
        raise UsageError(f"{path}: write a .jsonl or .csv file")
    os.replace(tmp, path)
