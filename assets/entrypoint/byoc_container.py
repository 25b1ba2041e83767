#!/usr/bin/env python3
"""byoc's container entry point for Amazon Braket Hybrid Jobs (recipe 2: custom base).

The service starts the image the SageMaker way: `train` (from sagemaker-training)
runs $SAGEMAKER_PROGRAM from /opt/ml/code, which is this file. It then:

  1. links /opt/braket to /opt/ml and creates the working directories;
  2. fetches the job's source (AMZN_BRAKET_SCRIPT_S3_URI: s3://, https://,
     file:// or a local path; an archive, a file, or a directory, which is placed
     under its own name as in the SDK's source.tar.gz) and unpacks it
     (AMZN_BRAKET_SCRIPT_COMPRESSION_TYPE GZIP/ZIP/NONE) into
     /opt/braket/code/customer_code/extracted;
  3. installs every requirements.txt of the source with pip, and instantiates
     a Julia Project.toml next to a Julia entry point; a failed install fails
     the job (the stock launcher ignores it);
  4. reads the hyperparameters (AMZN_BRAKET_HP_FILE) and exports each as
     SM_HP_<NAME> for programs in any language;
  5. starts the entry point (AMZN_BRAKET_SCRIPT_ENTRY_POINT) by its kind:
       pkg.module[:function]    Python (a function gets the hyperparameters as
                                keyword arguments when all of them bind)
       path/x.py                python3 x.py
       path/x.jl                julia [--project=<dir of Project.toml>] x.jl
       path/x.sh                sh x.sh
       path/Cargo.toml          cargo run --release
       path/CMakeLists.txt[:T]  cmake configure + build, then run target T
                                (default: the first add_executable)
       path/x.cpp, x.cc         c++ -O2 -std=c++17, then run it
       path/x.rs                rustc -O, then run it
       any other executable     run it (also an absolute path in the image)
     in the source directory (a Python module: in /opt/ml/code, as the stock
     launcher and the SDK's LocalQuantumJob), with stdout/stderr passed through line by line so
     "Metrics - ..." lines reach the job's logs as they are printed;
  6. on any failure writes /opt/ml/output/failure ("Type: message", which the
     service reports as failureReason) and exits non-zero.

Results belong in /opt/ml/model (AMZN_BRAKET_JOB_RESULTS_DIR); checkpoints in
AMZN_BRAKET_CHECKPOINT_DIR. AMZN_BRAKET_JOB_TOKEN is passed on untouched: code
that creates quantum tasks without the Braket SDK must send it as jobToken.
Needs only Python 3.8+ and its standard library (boto3 for s3:// sources).
"""

import inspect
import json
import os
import re
import runpy
import shutil
import signal
import subprocess
import sys
import tarfile
import tempfile
import time
import traceback
import urllib.parse
import urllib.request
import zipfile

OPT_ML = "/opt/ml"
OPT_BRAKET = "/opt/braket"
CUSTOMER_CODE = os.path.join(OPT_BRAKET, "code", "customer_code")
ORIGINAL_DIR = os.path.join(CUSTOMER_CODE, "original")
EXTRACTED_DIR = os.path.join(CUSTOMER_CODE, "extracted")
CODE_DIR = os.path.join(OPT_ML, "code")
FAILURE_FILE = os.path.join(OPT_ML, "output", "failure")
MODEL_DIR = os.path.join(OPT_ML, "model")
DEFAULT_HP_FILE = os.path.join(OPT_BRAKET, "input", "config", "hyperparameters.json")
DEFAULT_CHECKPOINT_DIR = "/opt/jobs/checkpoints"
FAILURE_LIMIT = 4096


class JobError(Exception):
    """A failure the job's owner can act on; its text goes to the failure file."""


def log(message):
    print("byoc: %s" % message, file=sys.stderr, flush=True)


def write_failure(text):
    try:
        os.makedirs(os.path.dirname(FAILURE_FILE), exist_ok=True)
        with open(FAILURE_FILE, "a") as f:
            f.write(text[:FAILURE_LIMIT])
            if not text.endswith("\n"):
                f.write("\n")
    except OSError as e:
        log("cannot write %s: %s" % (FAILURE_FILE, e))


def failure_written():
    try:
        return os.path.getsize(FAILURE_FILE) > 0
    except OSError:
        return False


# ---- 1. directories ---------------------------------------------------------

def prepare_directories():
    if not os.path.lexists(OPT_BRAKET):
        os.makedirs(OPT_ML, exist_ok=True)
        os.symlink(OPT_ML, OPT_BRAKET)
    for d in (ORIGINAL_DIR, EXTRACTED_DIR, MODEL_DIR, os.path.dirname(FAILURE_FILE)):
        os.makedirs(d, exist_ok=True)


# ---- 2. settings and source -------------------------------------------------

def job_setting(name, hps_key):
    value = os.environ.get(name)
    if value:
        return value
    # SageMaker-style local testing passes the settings inside SM_HPS
    try:
        return json.loads(os.environ.get("SM_HPS", "{}")).get(hps_key)
    except ValueError:
        return None


def fetch_source(uri):
    """Bring the source to ORIGINAL_DIR; returns the local path (file or directory)."""
    parsed = urllib.parse.urlparse(uri)
    if parsed.scheme == "s3":
        try:
            import boto3  # noqa: PLC0415 (only needed for S3 sources)
        except ImportError:
            raise JobError("the source is in S3 (%s) but boto3 is not installed in the image" % uri)
        dest = os.path.join(ORIGINAL_DIR, os.path.basename(parsed.path) or "source")
        log("downloading %s" % uri)
        boto3.client("s3").download_file(parsed.netloc, parsed.path.lstrip("/"), dest)
        return dest
    if parsed.scheme in ("http", "https"):
        dest = os.path.join(ORIGINAL_DIR, os.path.basename(parsed.path) or "source")
        log("downloading %s://%s%s" % (parsed.scheme, parsed.netloc, parsed.path))
        with urllib.request.urlopen(uri, timeout=300) as r, open(dest, "wb") as f:
            shutil.copyfileobj(r, f)
        return dest
    path = urllib.parse.unquote(parsed.path) if parsed.scheme == "file" else uri
    if not os.path.exists(path):
        raise JobError("the source %s does not exist" % uri)
    if os.path.isdir(path):
        return path
    dest = os.path.join(ORIGINAL_DIR, os.path.basename(path))
    shutil.copyfile(path, dest)
    return dest


def safe_members(tar, dest):
    root = os.path.realpath(dest)
    for m in tar.getmembers():
        target = os.path.realpath(os.path.join(dest, m.name))
        if target != root and not target.startswith(root + os.sep):
            raise JobError("the source archive has a path outside its directory: %s" % m.name)
        if m.issym() or m.islnk():
            link = os.path.realpath(os.path.join(os.path.dirname(target), m.linkname))
            if link != root and not link.startswith(root + os.sep):
                raise JobError("the source archive has a link outside its directory: %s" % m.name)
        yield m


def unpack_source(path, compression):
    kind = (compression or "").upper()
    name = path.lower()
    if os.path.isdir(path):  # under its own name, as in the SDK's source.tar.gz
        name = os.path.basename(os.path.normpath(path))
        shutil.copytree(path, os.path.join(EXTRACTED_DIR, name), symlinks=True, dirs_exist_ok=True)
    elif kind == "ZIP" or (kind != "NONE" and name.endswith(".zip")):
        with zipfile.ZipFile(path) as z:
            for n in z.namelist():
                target = os.path.realpath(os.path.join(EXTRACTED_DIR, n))
                if not target.startswith(os.path.realpath(EXTRACTED_DIR) + os.sep):
                    raise JobError("the source archive has a path outside its directory: %s" % n)
            z.extractall(EXTRACTED_DIR)
    elif kind == "GZIP" or (kind != "NONE" and (name.endswith(".tar.gz") or name.endswith(".tgz"))):
        try:
            with tarfile.open(path, "r:*") as t:
                members = list(safe_members(t, EXTRACTED_DIR))
                if hasattr(tarfile, "data_filter"):
                    t.extractall(EXTRACTED_DIR, members=members, filter="data")
                else:
                    t.extractall(EXTRACTED_DIR, members=members)
        except tarfile.TarError as e:
            raise JobError("the source %s is not a gzip'd tar archive: %s" % (os.path.basename(path), e))
    else:
        shutil.copy(path, EXTRACTED_DIR)


# ---- 3. dependencies --------------------------------------------------------

def has_requirements(path):
    with open(path, errors="replace") as f:
        return any(line.strip() and not line.strip().startswith("#") for line in f)


def install_requirements():
    files = []
    for dirpath, dirnames, filenames in os.walk(EXTRACTED_DIR):
        dirnames.sort()
        if "requirements.txt" in filenames:
            files.append(os.path.join(dirpath, "requirements.txt"))
    for req in files:
        if not has_requirements(req):
            continue
        log("installing %s" % os.path.relpath(req, EXTRACTED_DIR))
        try:
            rc = subprocess.call([sys.executable, "-m", "pip", "install", "--no-cache-dir", "-r", req])
        except OSError as e:
            rc = e
        if rc != 0:
            raise JobError("pip install -r %s failed (%s)" % (os.path.relpath(req, EXTRACTED_DIR), rc))


# ---- 4. hyperparameters -----------------------------------------------------

def read_hyperparameters():
    path = os.environ.get("AMZN_BRAKET_HP_FILE", DEFAULT_HP_FILE)
    if not os.path.exists(path):
        return {}
    try:
        with open(path) as f:
            hps = json.load(f)
    except ValueError as e:
        raise JobError("the hyperparameters file %s is not JSON: %s" % (path, e))
    if not isinstance(hps, dict):
        raise JobError("the hyperparameters file %s is not a JSON object" % path)
    return {str(k): str(v) for k, v in hps.items()}


def child_environment(hps):
    env = dict(os.environ)
    env.setdefault("AMZN_BRAKET_JOB_RESULTS_DIR", os.path.join(OPT_BRAKET, "model"))
    env.setdefault("AMZN_BRAKET_HP_FILE", DEFAULT_HP_FILE)
    env.setdefault("AMZN_BRAKET_CHECKPOINT_DIR", DEFAULT_CHECKPOINT_DIR)
    if os.path.isdir(os.path.join(OPT_ML, "input", "data")):
        env.setdefault("AMZN_BRAKET_INPUT_DIR", os.path.join(OPT_BRAKET, "input", "data"))
    for name, value in hps.items():
        env["SM_HP_" + re.sub(r"[^A-Za-z0-9]", "_", name).upper()] = value
    env["PYTHONPATH"] = EXTRACTED_DIR + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    env["PYTHONUNBUFFERED"] = "1"
    return env


# ---- 5. entry points --------------------------------------------------------

def first_executable_target(cmakelists):
    with open(cmakelists, errors="replace") as f:
        m = re.search(r"add_executable\s*\(\s*([A-Za-z0-9_.+-]+)", f.read())
    if not m:
        raise JobError("%s has no add_executable(); name the target: CMakeLists.txt:<target>" % cmakelists)
    return m.group(1)


def find_file(root, name):
    for dirpath, _, filenames in os.walk(root):
        if name in filenames:
            candidate = os.path.join(dirpath, name)
            if os.access(candidate, os.X_OK):
                return candidate
    return None


def julia_project(path):
    d = os.path.dirname(os.path.abspath(path))
    stop = os.path.realpath(EXTRACTED_DIR)
    while True:
        if os.path.exists(os.path.join(d, "Project.toml")) or os.path.exists(os.path.join(d, "JuliaProject.toml")):
            return d
        if os.path.realpath(d) == stop or os.path.dirname(d) == d:
            return None
        d = os.path.dirname(d)


def run_step(argv, env, cwd, what):
    log("%s: %s" % (what, " ".join(argv)))
    try:
        rc = subprocess.call(argv, env=env, cwd=cwd)
    except OSError as e:
        raise JobError("%s: cannot run %s: %s" % (what, argv[0], e))
    if rc != 0:
        raise JobError("%s failed: %s exited with code %d" % (what, argv[0], rc))


def touch_rust_sources(root):
    """Cargo judges a path package fresh by file times. The image's build compiled a stand-in
    main.rs of the same package into the target directory jobs reuse, later than the job's own
    files were written (their times come from the source archive), so cargo would run the
    stand-in. Touching the package's files makes cargo build the job's code; the dependencies
    compiled in the image stay fresh (they are judged by version, not by these files)."""
    now = time.time()
    for d, dirs, files in os.walk(root):
        dirs[:] = [x for x in dirs if x not in ("target", ".git")]
        for f in files:
            if f.endswith(".rs") or f in ("Cargo.toml", "Cargo.lock"):
                try:
                    os.utime(os.path.join(d, f), (now, now))
                except OSError:
                    pass


def plan(entry, env):
    """Return (kind, argv or python entry, cwd) for the entry point; builds what needs building."""
    target = None
    candidate = entry
    if ":" in entry:
        head, tail = entry.rsplit(":", 1)
        if os.path.exists(os.path.join(EXTRACTED_DIR, head)) or os.path.isabs(head):
            candidate, target = head, tail
    path = candidate if os.path.isabs(candidate) else os.path.join(EXTRACTED_DIR, candidate)
    if not os.path.exists(path):
        if re.match(r"^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*(:[A-Za-z_][A-Za-z0-9_.]*)?$", entry):
            return "python", entry, CODE_DIR
        raise JobError("entry point %s: no such file in the source, and not a Python module name" % entry)
    if os.path.isdir(path):
        for marker in ("Cargo.toml", "CMakeLists.txt"):
            if os.path.exists(os.path.join(path, marker)):
                path = os.path.join(path, marker)
                break
        else:
            raise JobError("entry point %s is a directory without Cargo.toml or CMakeLists.txt" % entry)
    base = os.path.basename(path)
    where = os.path.dirname(path)
    ext = os.path.splitext(base)[1].lower()
    if base == "Cargo.toml":
        env.setdefault("CARGO_TARGET_DIR", tempfile.mkdtemp(prefix="byoc-cargo-"))
        touch_rust_sources(where)
        return "rust", ["cargo", "run", "--release", "--manifest-path", path], where
    if base == "CMakeLists.txt":
        build = tempfile.mkdtemp(prefix="byoc-cmake-")
        run_step(["cmake", "-S", where, "-B", build, "-DCMAKE_BUILD_TYPE=Release"], env, where, "configure")
        run_step(["cmake", "--build", build, "--parallel", str(os.cpu_count() or 1)], env, where, "build")
        name = target or first_executable_target(path)
        exe = find_file(build, name)
        if not exe:
            raise JobError("the build did not produce the executable %s" % name)
        return "cmake", [exe], where
    if ext in (".cpp", ".cc", ".cxx", ".c++"):
        exe = os.path.join(tempfile.mkdtemp(prefix="byoc-cpp-"), os.path.splitext(base)[0])
        run_step([os.environ.get("CXX", "c++"), "-O2", "-std=c++17", "-o", exe, path], env, where, "compile")
        return "cpp", [exe], where
    if ext == ".rs":
        exe = os.path.join(tempfile.mkdtemp(prefix="byoc-rs-"), os.path.splitext(base)[0])
        run_step(["rustc", "-O", "-o", exe, path], env, where, "compile")
        return "rust", [exe], where
    if ext == ".py":
        return "python-script", [sys.executable, path], where
    if ext == ".jl":
        project = julia_project(path)
        argv = ["julia"] + (["--project=" + project] if project else []) + [path]
        if project and os.environ.get("BYOC_JULIA_INSTANTIATE", "1") != "0":
            run_step(["julia", "--project=" + project, "-e", "using Pkg; Pkg.instantiate()"], env, where,
                     "julia packages")
        return "julia", argv, where
    if ext == ".sh":
        return "shell", ["sh", path], where
    if os.access(path, os.X_OK):
        return "executable", [path], where
    raise JobError("entry point %s: byoc does not know how to start a %s file" % (entry, ext or "extension-less"))


def convert(value, annotation):
    if annotation is bool:
        return value.strip().lower() in ("1", "true", "yes", "y", "on")
    if annotation in (int, float, str):
        return annotation(value)
    return value


def run_python_entry(entry, hps):
    """Runs in the child process: import the module, call the function or run it as __main__."""
    sys.path.insert(0, EXTRACTED_DIR)
    os.chdir(CODE_DIR)  # as the stock launcher, which sagemaker-training starts in /opt/ml/code
    module_name, _, func_name = entry.partition(":")
    if not func_name:
        runpy.run_module(module_name, run_name="__main__", alter_sys=True)
        return
    import importlib  # noqa: PLC0415

    func = importlib.import_module(module_name)
    for part in func_name.split("."):
        func = getattr(func, part)
    params = inspect.signature(func).parameters
    takes_any = any(p.kind == p.VAR_KEYWORD for p in params.values())
    if hps and (takes_any or all(name in params for name in hps)):
        kwargs = {}
        for name, value in hps.items():
            p = params.get(name)
            kwargs[name] = convert(value, p.annotation) if p is not None else value
        func(**kwargs)
    else:
        func()


def python_child_main(entry):
    try:
        run_python_entry(entry, read_hyperparameters())
    except SystemExit as e:
        code = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
        if code != 0:
            write_failure("SystemExit: %s" % e.code)
        return code
    except BaseException as e:  # noqa: BLE001 (everything the user code raises is the job's failure)
        traceback.print_exc()
        write_failure("%s: %s" % (type(e).__name__, e))
        return 1
    return 0


# ---- 6. the run ---------------------------------------------------------------

CHILD = None


def forward_signal(signum, _frame):
    if CHILD is not None and CHILD.poll() is None:
        CHILD.send_signal(signum)


def start(argv, env, cwd):
    global CHILD
    CHILD = subprocess.Popen(argv, env=env, cwd=cwd)
    rc = CHILD.wait()
    CHILD = None
    return 128 - rc if rc < 0 else rc  # killed by a signal: 128 + signal number


def main():
    started = time.time()
    prepare_directories()
    uri = job_setting("AMZN_BRAKET_SCRIPT_S3_URI", "AMZN_BRAKET_SCRIPT_S3_URI")
    entry = job_setting("AMZN_BRAKET_SCRIPT_ENTRY_POINT", "AMZN_BRAKET_SCRIPT_ENTRY_POINT")
    compression = job_setting("AMZN_BRAKET_SCRIPT_COMPRESSION_TYPE", "AMZN_BRAKET_SCRIPT_COMPRESSION_TYPE")
    if not uri or not entry:
        raise JobError("AMZN_BRAKET_SCRIPT_S3_URI and AMZN_BRAKET_SCRIPT_ENTRY_POINT must both be set")
    unpack_source(fetch_source(uri), compression)
    install_requirements()
    hps = read_hyperparameters()
    env = child_environment(hps)
    os.makedirs(env["AMZN_BRAKET_CHECKPOINT_DIR"], exist_ok=True)
    if env.get("AMZN_BRAKET_JOB_TOKEN"):
        log("job token present: tasks created without the Braket SDK must send it as jobToken")
    kind, what, cwd = plan(entry, env)
    for s in (signal.SIGTERM, signal.SIGINT):
        signal.signal(s, forward_signal)
    log("starting %s entry point %s" % (kind, entry))
    if kind == "python":
        if os.environ.get("OMPI_COMM_WORLD_SIZE"):  # under mpirun: one process per rank already
            rc = python_child_main(what)
        else:
            rc = start([sys.executable, os.path.abspath(__file__), "--run-python", what], env, cwd)
    else:
        rc = start(what, env, cwd)
    if rc != 0 and not failure_written():
        write_failure("AlgorithmError: the %s entry point %s exited with code %d" % (kind, entry, rc))
    results = sorted(os.listdir(MODEL_DIR)) if os.path.isdir(MODEL_DIR) else []
    log("finished in %.1fs with exit code %d; results: %s" % (time.time() - started, rc,
                                                            ", ".join(results) if results else "none"))
    return rc


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--run-python":
        sys.exit(python_child_main(sys.argv[2]))
    try:
        sys.exit(main())
    except JobError as e:
        log(str(e))
        write_failure("ClientError: %s" % e)
        sys.exit(1)
    except Exception as e:  # noqa: BLE001 (the launcher's own bug still fails the job loudly)
        traceback.print_exc()
        write_failure("%s: %s" % (type(e).__name__, e))
        sys.exit(1)
