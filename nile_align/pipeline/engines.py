"""Where the check's tasks run: a pool of processes on this machine (:class:`LocalEngine`,
the default) or a Ray cluster (:class:`RayEngine`). One mechanism for both: a task is a pure
function of its arguments, submitted with :meth:`submit`; what it returns stays where it was
made (a file of this machine's spool, an object of Ray's store) until a later task takes it
as an argument or the driver asks for it with :meth:`get`. So the driver holds only what it
asks for, and a task lost with its worker is run again and gives the same result.
"""

from __future__ import annotations

import contextlib
import functools
import os
import pickle
import shutil
import tempfile
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from ..guard import alive
from ..runtime import collector_paused

__all__ = ["INLINE_BYTES", "TASKS_PER_WORKER", "Engine", "LocalEngine", "RayEngine", "cores",
           "ignore_interrupt", "interrupt_ignored_by_children", "make_engine", "stop"]


#: Tasks a worker process runs before a fresh one replaces it: what a process keeps between
#: tasks (the caches of parsed intents and word forms, the allocator's unreturned pages)
#: stays bounded however large the corpus.
TASKS_PER_WORKER = 16
#: The largest task result Ray returns to the driver's own memory rather than its object
#: store (:class:`RayEngine`).
INLINE_BYTES = 1024


#: The modules the local engine's workers start with (the tasks they run).
_PRELOAD = ["numpy", "pandas", "nile_align.pipeline.tasks"]


def ignore_interrupt() -> None:
    """A worker leaves Ctrl-C to the process that started it, which stops every worker and
    says so once (a worker's own KeyboardInterrupt would print a traceback). A worker may
    start with SIGINT blocked (:func:`interrupt_ignored_by_children`): once ignored, it is
    unblocked, and a Ctrl-C held meanwhile is dropped."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


@contextlib.contextmanager
def _sigint(handler: Any) -> Iterator[None]:
    """SIGINT handled by ``handler`` during the block, in the main thread (only it can
    change a handler: elsewhere nothing changes)."""
    import signal

    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


@contextlib.contextmanager
def _interrupt_held() -> Iterator[None]:
    """A Ctrl-C during the block raised at its end (in the main thread)."""
    held: list[int] = []
    with _sigint(lambda number, frame: held.append(number)):
        yield
    if held:
        raise KeyboardInterrupt


@contextlib.contextmanager
def interrupt_ignored_by_children() -> Iterator[None]:
    """Processes started inside this block start with SIGINT blocked, so a Ctrl-C while
    such a process still imports (a forkserver importing its preload, a spawned process)
    is left to this process, which stops them, instead of printing a traceback there (each
    ignores it before unblocking it: :func:`ignore_interrupt`). A child inherits the mask
    of the thread that starts it, so the mask is this thread's alone; this process keeps
    its handler, and a Ctrl-C during the block is raised at its end, never dropped (the
    way CPython starts its resource tracker, bpo-33613)."""
    import signal

    with _interrupt_held():
        mask = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        try:
            yield
        finally:  # a Ctrl-C that came meanwhile is handled here, by the held one's handler
            signal.pthread_sigmask(signal.SIG_SETMASK, mask)


def stop(pool: ProcessPoolExecutor) -> None:
    """Stop a pool now: shut down (no new worker), its workers killed, no task waited for
    (Ctrl-C, an error). Its managing thread, which sees the workers gone at once, is let
    finish (a few seconds at most): left running, it may close its wake-up pipe while the
    interpreter's exit writes to it, and Python 3.11 then prints a traceback ("Bad file
    descriptor") as the process ends, after a one-line error."""
    processes = getattr(pool, "_processes", None) or {}  # (shutdown lets go of it)
    manager = getattr(pool, "_executor_manager_thread", None)
    pool.shutdown(wait=False, cancel_futures=True)
    for process in list(processes.values()):
        with contextlib.suppress(Exception):
            process.kill()
    if manager is not None and manager is not threading.current_thread():
        manager.join(timeout=5)


def cores() -> int:
    """The cores this process may use."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else \
        (os.cpu_count() or 1)


class _Pool(ProcessPoolExecutor):
    """A process pool whose workers, each leaving after ``max_tasks_per_child`` tasks, are
    always replaced. Python 3.11 to 3.13 can leave the pool with no worker and its queued
    tasks waiting forever (CPython gh-115634: the replacement trusts a count of idle workers
    that a worker which has left may still hold); this pool replaces a worker whenever it
    has fewer than it was given, which is what the fixed versions do; none once it is shut
    down (a worker started while the driver stops would find the pool's queues gone).

    Its workers are all started at once (:meth:`start`), a Ctrl-C held until they are
    known: one coming between starting a worker (which waits for the forkserver to be
    ready) and knowing it would leave a worker no one stops."""

    def _adjust_process_count(self) -> None:
        if self._shutdown_thread:
            return
        if len(self._processes) < self._max_workers:  # type: ignore[attr-defined]
            self._spawn_process()  # type: ignore[attr-defined]

    def start(self) -> None:
        """Every worker started now (see the class)."""
        with _interrupt_held():
            while len(self._processes) < self._max_workers:  # type: ignore[attr-defined]
                self._spawn_process()  # type: ignore[attr-defined]


@dataclass(frozen=True)
class _Ref:
    """A result of a local task: the file it is written to, and the task that writes it."""

    path: str
    task: int


def _run(payload: bytes) -> None:
    """A local task in a worker: :func:`_execute` of its pickled function and arguments."""
    import cloudpickle

    _execute(*cloudpickle.loads(payload))


def _execute(fn: Callable, args: tuple, paths: list[str]) -> None:
    """A local task: its arguments loaded (a :class:`_Ref` from its file), the function run,
    each result written to its file under a temporary name, renamed when complete (a worker
    killed mid-write leaves no result that looks whole); then :func:`_collected`."""
    with collector_paused():
        out = fn(*(_load(a) if isinstance(a, _Ref) else a for a in args))
        for result, path in zip(out if len(paths) > 1 else (out,), paths):
            partial = f"{path}.partial"
            with open(partial, "wb") as f:
                pickle.dump(result, f, protocol=5)
            os.replace(partial, path)
        out = result = None
        _collected()


def _collected() -> None:
    """What a task left in reference cycles (a partition's graph and its cached views),
    collected once it is done: the youngest generation only, which then holds just what the
    task made. The collector is otherwise off in a worker (:func:`_worker`) and paused during
    a task: its automatic passes would walk a chunk's objects while the task needs them, and
    now and then every object the worker keeps (its caches), for nothing."""
    import gc

    gc.collect(0)


def child_of(driver: int) -> None:
    """How a helper process of a command starts (the model's): Ctrl-C left to the driver,
    and it ends when the driver does."""
    ignore_interrupt()
    watch_driver(driver)


def _worker(driver: int | None = None) -> None:
    """How a worker process starts: Ctrl-C left to the driver (:func:`ignore_interrupt`),
    the cyclic garbage collector off (:func:`_collected` collects after each task; the
    worker leaves after :data:`TASKS_PER_WORKER` tasks), and it ends when the ``driver``
    process does (:func:`watch_driver`)."""
    import gc

    ignore_interrupt()
    gc.disable()
    if driver is not None:
        watch_driver(driver)


def watch_driver(driver: int, every: float = 1.0) -> None:
    """End this process within ``every`` seconds of the ``driver``'s end, however it ends
    (SIGKILL included: no clean-up of the driver's can do it). A worker's parent is the
    forkserver, not the driver, so a parent-death signal would not reach it."""
    import threading
    import time

    def watch() -> None:
        while alive(driver):
            time.sleep(every)
        os._exit(1)

    threading.Thread(target=watch, name="nile-align-driver-watch", daemon=True).start()


def _paused(fn: Callable) -> Callable:
    """``fn`` run as a local task runs (a Ray task): the collector paused, and
    :func:`_collected` after it."""

    @functools.wraps(fn)
    def run(*args: Any) -> Any:
        with collector_paused():
            try:
                return fn(*args)
            finally:
                _collected()

    return run


def _load(ref: _Ref) -> Any:
    with open(ref.path, "rb") as f:
        return pickle.load(f)


class Engine(Protocol):
    """Where a check's tasks run (:class:`LocalEngine`, :class:`RayEngine`, or one of your
    own): the driver hands it pure functions with their arguments and asks for their
    results by reference, so that what it does not ask for never passes through its
    memory."""

    #: The engine's name, in summary.json.
    name: str
    #: How many tasks run at once.
    slots: int

    def submit(self, fn: Callable[..., Any], *args: Any, returns: int = 1) -> Any:
        """Run ``fn(*args)`` (arguments may be references); a reference to its result, or a
        tuple of ``returns`` references to the parts of a tuple it returns."""
        ...

    def put(self, value: Any) -> Any:
        """A reference to ``value``, so that many tasks take it without its travelling with
        each."""
        ...

    def get(self, ref: Any) -> Any:
        """The value a reference stands for, once its task is done."""
        ...

    def done(self, refs: Sequence[Any]) -> Iterator[int]:
        """The index of each reference in ``refs`` as its task ends, in the order they end."""
        ...

    def cancel(self, refs: Iterable[Any]) -> None:
        """Cancel the tasks of ``refs`` that have not ended."""
        ...

    def close(self) -> None:
        """Let the workers go and remove what the engine kept."""
        ...


class LocalEngine:
    """Tasks in a pool of worker processes on this machine. Results are kept in a spool
    folder on disk, so a result the driver does not ask for never passes through its
    memory. A worker that dies is replaced and its tasks run again.

    Args:
        processes: How many worker processes (default: one per core; 1 runs the tasks in
            this process, one after the other).
        spool: The parent of the spool folder (default the system's temporary folder).
        retries: How many times the tasks of a worker that dies run again.
    """

    name = "local"
    address = None

    def __init__(self, processes: int | None = None, *, spool: str | Path | None = None,
                 retries: int = 2):
        self.processes = max(1, processes or cores())
        #: Tasks that run at once.
        self.slots = self.processes
        self.retries = retries
        self._spool = Path(tempfile.mkdtemp(prefix=f"nile-align-tasks-{os.getpid()}-",
                                            dir=None if spool is None else str(spool)))
        self._pool: ProcessPoolExecutor | None = None
        #: What a task not yet finished needs to run again (its pickled function and
        #: arguments), dropped when it finishes: the driver keeps no input it has handed on.
        self._payloads: dict[int, bytes] = {}
        self._futures: dict[int, Future] = {}
        self._tries: dict[int, int] = {}

    # --- submitting -------------------------------------------------------------------------

    def submit(self, fn: Callable, *args: Any, returns: int = 1) -> Any:
        """Run ``fn(*args)`` as a task; its result (or its ``returns`` results) as refs. An
        argument that is a ref is the result it stands for, loaded where the task runs."""
        n = len(self._futures)
        paths = [str(self._spool / f"{n}-{k}.pkl") for k in range(returns)]
        for a in args:  # a task starts when the results it takes exist
            if isinstance(a, _Ref):
                self._wait(a.task)
        if self.processes == 1:
            future: Future = Future()
            try:
                _execute(fn, args, paths)
                future.set_result(None)
            except BaseException as e:  # raised where the result is asked for
                if isinstance(e, KeyboardInterrupt):
                    raise
                future.set_exception(e)
            self._futures[n] = future
        else:
            import cloudpickle

            payload = cloudpickle.dumps((fn, args, paths), protocol=5)
            self._payloads[n] = payload
            self._futures[n] = self._executor().submit(_run, payload)
        refs = [_Ref(p, n) for p in paths]
        return refs if returns > 1 else refs[0]

    def put(self, value: Any) -> Any:
        """``value`` as a ref, written once to the spool: tasks that take it load it there
        (what several tasks share travels once)."""
        n = len(self._futures)
        ref = _Ref(str(self._spool / f"{n}-0.pkl"), n)
        with open(ref.path, "wb") as f:
            pickle.dump(value, f, protocol=5)
        future: Future = Future()
        future.set_result(None)
        self._futures[n] = future
        return ref

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            import multiprocessing

            # forkserver: workers start from a clean process, never from a parent that has
            # started threads (a model's, OpenMP's) that a forked child would wait on.
            method = "forkserver" if "forkserver" in multiprocessing.get_all_start_methods() \
                else "spawn"
            context = multiprocessing.get_context(method)
            if method == "forkserver":
                # The server imports what every task imports once; each worker (a fresh one
                # after TASKS_PER_WORKER tasks) starts with it (about half a second each).
                from multiprocessing import forkserver

                context.set_forkserver_preload(_PRELOAD)
                with interrupt_ignored_by_children():
                    forkserver.ensure_running()
            self._pool = _Pool(self.processes, mp_context=context,
                               initializer=_worker, initargs=(os.getpid(),),
                               max_tasks_per_child=TASKS_PER_WORKER)
            self._pool.start()
        return self._pool

    # --- results ----------------------------------------------------------------------------

    def _wait(self, n: int) -> None:
        """Wait for task ``n``; run it again where its worker died."""
        while True:
            try:
                self._futures[n].result()
                self._payloads.pop(n, None)
                return
            except BrokenProcessPool:
                self._restart(n)

    def _restart(self, n: int) -> None:
        """The pool broke (a worker died): a new one, and every unfinished task again."""
        self._tries[n] = self._tries.get(n, 0) + 1
        if self._tries[n] > self.retries:
            from ..errors import NileAlignError

            raise NileAlignError(f"a task failed {self._tries[n]} times: its worker died "
                                 f"each time (out of memory?)") from None
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
        self._pool = None
        for k, payload in self._payloads.items():
            future = self._futures[k]
            if future.cancelled() or (future.done() and
                                      isinstance(future.exception(), BrokenProcessPool)):
                self._futures[k] = self._executor().submit(_run, payload)

    def get(self, ref: Any) -> Any:
        """The result ``ref`` stands for (a list of refs: each one's)."""
        if isinstance(ref, list):
            return [self.get(r) for r in ref]
        self._wait(ref.task)
        return _load(ref)

    def done(self, refs: Sequence[Any]) -> Iterator[int]:
        """The positions of ``refs`` as their tasks finish."""
        pending = {n: r.task for n, r in enumerate(refs)}
        while pending:
            futures = {self._futures[t]: n for n, t in pending.items()}
            finished, _ = wait(futures, return_when=FIRST_COMPLETED)
            for future in finished:
                n = futures[future]
                if isinstance(future.exception(), BrokenProcessPool):
                    self._restart(pending[n])
                    break
                future.result()  # a task's own error, raised here
                self._payloads.pop(pending.pop(n), None)
                yield n

    def cancel(self, refs: Iterable[Any]) -> None:
        """Stop every task (Ctrl-C): the workers are killed, nothing waits for them."""
        del refs
        if self._pool is not None:
            stop(self._pool)
            self._pool = None

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True)
            self._pool = None
        shutil.rmtree(self._spool, ignore_errors=True)


class RayEngine:
    """The tasks on a Ray cluster, a running one or a local one started here. A task whose
    worker dies is run again by Ray.

    Args:
        address: A running cluster's address (``ray start --head`` prints it); None starts
            a local one here (stopped by :meth:`close`).
        retries: How many times Ray runs again a task whose worker dies.
        object_store_gib: The size of a local cluster's object store, in GiB (None: Ray's
            default).
    """

    name = "ray"

    def __init__(self, address: str | None = None, *, retries: int = 3,
                 object_store_gib: float | None = 4.0):
        from ..judge.scale import start_ray

        # Chunks and partitions pass through the object store of a local cluster; beyond
        # its size Ray spills them to disk, so a larger corpus needs no more memory. A
        # result under Ray's 100 KiB goes instead to its owner, the driver, which keeps it
        # in its own memory (and in the spec of each task that takes it): the splits make a
        # result per chunk and destination, most of them small, which took the driver's heap
        # to 0.94 GiB at 1,000,000 rows (docs/benchmarks.md: now under 0.51). The workers
        # send only what is under 1 KiB (an empty piece) that way, all else to the store.
        self.ray, self._started = start_ray(
            address, object_store_gib=object_store_gib,
            env={"RAY_max_direct_call_object_size": str(INLINE_BYTES)})
        self.retries, self.address = retries, address or "local"
        self._remote: dict[tuple[Callable, int], Any] = {}
        #: Tasks that run at once: the cluster's cores.
        self.slots = max(1, int(self.ray.cluster_resources().get("CPU", 1)))

    def submit(self, fn: Callable, *args: Any, returns: int = 1) -> Any:
        key = (fn, returns)
        if key not in self._remote:
            self._remote[key] = self.ray.remote(num_cpus=1, num_returns=returns,
                                                max_retries=self.retries,
                                                max_calls=TASKS_PER_WORKER)(_paused(fn))
        return self._remote[key].remote(*args)

    def put(self, value: Any) -> Any:
        """``value`` in the object store, once, for the tasks that take it."""
        return self.ray.put(value)

    def get(self, ref: Any) -> Any:
        return self.ray.get(ref)

    def done(self, refs: Sequence[Any]) -> Iterator[int]:
        """The positions of ``refs`` as their tasks finish."""
        where = {ref: n for n, ref in enumerate(refs)}
        pending = list(refs)
        while pending:
            ready, pending = self.ray.wait(pending, num_returns=1)
            yield from (where[ref] for ref in ready)

    def cancel(self, refs: Iterable[Any]) -> None:
        for ref in refs:
            with contextlib.suppress(Exception):
                self.ray.cancel(ref, force=True)

    def close(self) -> None:
        if self._started and self.ray.is_initialized():
            self.ray.shutdown()


def make_engine(name: str = "local", *, address: str | None = None,
                processes: int | None = None,
                spool: str | Path | None = None) -> Engine:
    """The engine ``--engine`` names: ``local`` (a pool of ``processes``, its results in a
    folder under ``spool``) or ``ray`` (the cluster at ``address``; a local one when None)."""
    if name == "ray":
        return RayEngine(address)
    if name == "local":
        if spool is not None:
            Path(spool).mkdir(parents=True, exist_ok=True)
        return LocalEngine(processes, spool=spool)
    from ..errors import UsageError

    raise UsageError(f"unknown engine {name!r}; choose local or ray")
