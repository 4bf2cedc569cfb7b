"""The build backend of `pip install ./python` (PEP 517; python/pyproject.toml names it).

It builds the package against the interpreter that runs it with nothing but what the package
needs to run anyway, so that an offline venv can install it:

  - cffi (a dependency of the package) writes the C source of the extension sudokubench._sb
    from the declarations in sudokubench/_build.py;
  - the project's Makefile builds the library's -fPIC archive (`make BUILD=<temporary>
    <archive>`: -fopenmp, the per-level SIMD kernels with their own flags, the generated
    tables: the objects `make python` links), and $CC (else cc) compiles and links the
    extension over it against this interpreter's headers (Python.h). `pip install
    --config-settings build-dir=DIR` makes the archive in DIR instead (relative to the
    tree's top: `build` reuses the objects of a plain `make`), so that only the extension
    is compiled;
  - the wheel is written here: the package's modules (not _build.py, a build tool), the
    extension, and the .dist-info metadata.

No setuptools and no wheel package are needed, so the build works in a plain venv of any
CPython 3.8+ with its headers (setuptools' bdist_wheel, which needs the wheel package before
setuptools 70.1, is not used). Needs make, a C compiler with OpenMP, and this source tree
around python/: the package cannot be built from python/ alone, so there is no sdist.
SUDOKUBENCH_BUILD_VERBOSE=1 shows the build's commands' output.
"""
import base64
import hashlib
import importlib.util
import os
import re
import shlex
import subprocess
import sys
import sysconfig
import tempfile
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
NAME = "sudokubench"
SUMMARY = ("Solve, count, rate, generate and augment Sudoku of any geometry on every core "
           "(libsudokubench)")
REQUIRES_PYTHON = ">=3.8"
REQUIRES = ["numpy", "cffi>=1.15"]


class BuildError(Exception):
    """A build that cannot go on, with the reason and what to do."""


def version():
    """Returns the library's version, SB_VERSION of include/sudokubench.h: the package's."""
    header = os.path.join(ROOT, "include", "sudokubench.h")
    if not (os.path.isfile(header) and os.path.isfile(os.path.join(ROOT, "Makefile"))):
        raise BuildError(f"{ROOT} is not the sudokubench source tree (python/ must stay "
                         "inside it to be built)")
    with open(header, encoding="utf-8") as f:
        m = re.search(r'^#define SB_VERSION "([^"]+)"', f.read(), re.M)
    if not m:
        raise BuildError(f"{header} has no SB_VERSION")
    return m.group(1)


def tag():
    """Returns the wheel tag of this interpreter and platform, e.g. cp311-cp311-linux_x86_64:
    the extension is built for this interpreter's ABI."""
    if sys.implementation.name != "cpython":
        raise BuildError(f"the extension builds for CPython; this is {sys.implementation.name}")
    soabi = sysconfig.get_config_var("SOABI") or ""
    m = re.match(r"cpython-(\d+[a-z]*)", soabi)
    if not m:
        raise BuildError(f"cannot tell this interpreter's ABI (SOABI {soabi!r})")
    interpreter = "cp%d%d" % sys.version_info[:2]
    platform = re.sub(r"[-.]", "_", sysconfig.get_platform())
    return f"{interpreter}-cp{m.group(1)}-{platform}"


def metadata():
    """Returns the core metadata (METADATA) of the package."""
    lines = ["Metadata-Version: 2.1", f"Name: {NAME}", f"Version: {version()}",
             f"Summary: {SUMMARY}", f"Requires-Python: {REQUIRES_PYTHON}"]
    lines += [f"Requires-Dist: {r}" for r in REQUIRES]
    lines.append("Description-Content-Type: text/markdown")
    with open(os.path.join(HERE, "README.md"), encoding="utf-8") as f:
        return "\n".join(lines) + "\n\n" + f.read()


def dist_info():
    """Returns {name: bytes} of the .dist-info files, RECORD aside."""
    wheel = ("Wheel-Version: 1.0\nGenerator: python/sudokubench_build.py\n"
             f"Root-Is-Purelib: false\nTag: {tag()}\n")
    return {"METADATA": metadata().encode(), "WHEEL": wheel.encode(),
            "top_level.txt": f"{NAME}\n".encode()}


def headers():
    """Returns this interpreter's include directory, holding Python.h."""
    include = sysconfig.get_paths()["include"]
    if not os.path.isfile(os.path.join(include, "Python.h")):
        raise BuildError(f"{sys.executable} has no headers ({include}/Python.h is missing): "
                         "install them (Debian: python3-dev; pyenv and python.org builds "
                         "have them)")
    return include


def build_extension(work, verbose, lib_build=None):
    """Builds the extension in the directory work (the library too, unless lib_build names
    the build directory to make it in); returns its path."""
    include_py = headers()
    if importlib.util.find_spec("cffi") is None:  # _build.py imports it
        raise BuildError(f"cffi is not installed for {sys.executable}: the build writes the "
                         "extension with it and the package runs on it. Install it for this "
                         "interpreter (Debian's python3: python3-cffi, which a venv made with "
                         "--system-site-packages sees; offline: pip install --no-index "
                         "--find-links DIR cffi, from wheels brought along), then build with "
                         "pip's --no-build-isolation, which uses what is installed")
    cc = shlex.split(os.environ.get("CC") or "cc")
    make = os.environ.get("MAKE", "make")
    build = lib_build or os.path.join(work, "lib")
    archive = os.path.join(build, "pic", "libsudokubench_pic.a")
    cmd = [make, "-C", ROOT, f"-j{os.cpu_count() or 1}", f"BUILD={build}", archive]
    if os.environ.get("CC"):
        cmd.append(f"CC={os.environ['CC']}")
    print("sudokubench: " + " ".join(cmd), file=sys.stderr)
    run(cmd, verbose)
    # The declarations `make python` compiles, loaded from their file: _build is a build
    # script beside the package, not a module of it.
    spec = importlib.util.spec_from_file_location(
        "_build", os.path.join(HERE, "sudokubench", "_build.py"))
    _build = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(_build)
    include = os.path.join(ROOT, "include")
    ffi = _build.make_ffi(archive, include, ["-fopenmp"])
    source = os.path.join(work, "_sb.c")
    ffi.emit_c_code(source)
    ext = os.path.join(work, "_sb" + sysconfig.get_config_var("EXT_SUFFIX"))
    cmd = cc + ["-shared", "-fPIC", "-O2", "-I", include_py, "-I", include, "-o", ext,
                source, archive, "-fopenmp"]
    print("sudokubench: " + " ".join(cmd), file=sys.stderr)
    run(cmd, verbose)
    return ext


def run(cmd, verbose):
    """Runs cmd; its output shows when it fails (or always when verbose)."""
    p = subprocess.run(cmd, stdout=None if verbose else subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True)
    if p.returncode != 0:
        raise BuildError("%s exited %d%s" % (cmd[0], p.returncode,
                                             ":\n" + p.stdout[-6000:] if p.stdout else ""))


def record_line(name, data):
    """Returns the RECORD line of a file of the wheel."""
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}"


# ------------------------------------------------------------------------------------------
# PEP 517 hooks
# ------------------------------------------------------------------------------------------

def get_requires_for_build_wheel(config_settings=None):
    """Nothing beyond pyproject.toml's build requirement (cffi)."""
    return []


def prepare_metadata_for_build_wheel(metadata_directory, config_settings=None):
    """Writes the .dist-info directory; returns its name."""
    name = f"{NAME}-{version()}.dist-info"
    path = os.path.join(metadata_directory, name)
    os.makedirs(path, exist_ok=True)
    for fname, data in dist_info().items():
        with open(os.path.join(path, fname), "wb") as f:
            f.write(data)
    return name


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    """Builds the wheel into wheel_directory; returns its file name."""
    try:
        ver = version()
        wheel_name = f"{NAME}-{ver}-{tag()}.whl"
        verbose = bool(os.environ.get("SUDOKUBENCH_BUILD_VERBOSE"))
        lib_build = (config_settings or {}).get("build-dir")
        if lib_build and not os.path.isabs(lib_build):
            lib_build = os.path.join(ROOT, lib_build)
        with tempfile.TemporaryDirectory(prefix="sudokubench-wheel-") as out:
            ext = build_extension(out, verbose, lib_build)
            files = []
            pkg = os.path.join(HERE, NAME)
            for fname in sorted(os.listdir(pkg)):
                if fname.endswith(".py") and fname != "_build.py":
                    with open(os.path.join(pkg, fname), "rb") as f:
                        files.append((f"{NAME}/{fname}", f.read()))
            with open(ext, "rb") as f:
                files.append((f"{NAME}/{os.path.basename(ext)}", f.read()))
            info = f"{NAME}-{ver}.dist-info"
            files += [(f"{info}/{fname}", data) for fname, data in dist_info().items()]
            record = [record_line(n, d) for n, d in files] + [f"{info}/RECORD,,"]
            files.append((f"{info}/RECORD", ("\n".join(record) + "\n").encode()))
            os.makedirs(wheel_directory, exist_ok=True)
            target = os.path.join(wheel_directory, wheel_name)
            with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as z:
                for n, d in files:
                    zi = zipfile.ZipInfo(n, date_time=(1980, 1, 1, 0, 0, 0))
                    zi.external_attr = (0o755 if n.endswith(".so") else 0o644) << 16
                    zi.compress_type = zipfile.ZIP_DEFLATED
                    z.writestr(zi, d)
    except BuildError as e:
        raise SystemExit(f"sudokubench: cannot build: {e}")
    return wheel_name


def build_sdist(sdist_directory, config_settings=None):
    """Refused: the package builds from the whole source tree, not from python/ alone."""
    raise SystemExit("sudokubench: no sdist: the package builds from the sudokubench source "
                     "tree (pip install ./python inside it)")
