"""The build steps pyproject.toml leaves to setuptools: the cffi extension sudokubench._sb
over the library's sources, built against the interpreter that runs the build.

The library is compiled by the project's own Makefile (`make BUILD=<build temp>
<archive>`), so the extension gets exactly the objects `make python` links: -fopenmp, the
per-level SIMD kernels with their own flags, the generated tables. sudokubench/_build.py
then declares the API to cffi and links the archive in, so the module needs no installed
library. Needs make and a C compiler ($CC, else cc); nothing is downloaded.
"""
import importlib.util
import os
import shutil
import subprocess

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


class BuildPy(build_py):
    """Installs the package's modules without _build.py, a build tool (as `make install`)."""

    def find_package_modules(self, package, package_dir):
        return [m for m in super().find_package_modules(package, package_dir)
                if m[1] != "_build"]


class BuildExt(build_ext):
    """Builds sudokubench._sb: the library's -fPIC archive with make, then cffi over it."""

    def build_extension(self, ext):
        header = os.path.join(ROOT, "include", "sudokubench.h")
        if not (os.path.isfile(header) and os.path.isfile(os.path.join(ROOT, "Makefile"))):
            raise SystemExit(f"sudokubench: {ROOT} is not the sudokubench source tree "
                             "(python/ must stay inside it to be built)")
        build = os.path.abspath(os.path.join(self.build_temp, "libsudokubench"))
        archive = os.path.join(build, "pic", "libsudokubench_pic.a")
        cmd = [os.environ.get("MAKE", "make"), "-C", ROOT, f"-j{os.cpu_count() or 1}",
               f"BUILD={build}", archive]
        if os.environ.get("CC"):
            cmd.append(f"CC={os.environ['CC']}")
        subprocess.run(cmd, check=True)
        # The same declarations `make python` compiles, loaded from their file: _build is a
        # build script beside the package, not a module of it.
        spec = importlib.util.spec_from_file_location(
            "_build", os.path.join(HERE, "sudokubench", "_build.py"))
        _build = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(_build)
        ffi = _build.make_ffi(archive, os.path.join(ROOT, "include"), ["-fopenmp"])
        built = ffi.compile(tmpdir=os.path.join(os.path.abspath(self.build_temp), "cffi"),
                            verbose=bool(self.verbose))
        dest = self.get_ext_fullpath(ext.name)
        os.makedirs(os.path.dirname(dest), exist_ok=True)
        shutil.copy2(built, dest)


setup(ext_modules=[Extension("sudokubench._sb", sources=[])],
      cmdclass={"build_py": BuildPy, "build_ext": BuildExt})
