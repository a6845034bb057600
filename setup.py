"""Build of the optional compiled search core (``solver.native._core``).

Everything else is declared in ``pyproject.toml``. The extension needs a C++17 compiler and GMP's
headers (Debian: ``libgmp-dev``). It is optional: where either is missing, ``pip install`` still
succeeds and the solver runs its Python search (``take6 solve`` says which core ran and why).
"""

import os
import platform
import sys
import sysconfig

from setuptools import Extension, setup


def _has_gmp() -> bool:
    dirs = ["/usr/include", "/usr/local/include", sysconfig.get_paths()["include"]]
    dirs += [d for d in os.environ.get("CPATH", "").split(os.pathsep) if d]
    multiarch = sysconfig.get_config_var("MULTIARCH")
    if multiarch:
        dirs.append(os.path.join("/usr/include", multiarch))
    return any(os.path.exists(os.path.join(d, "gmpxx.h")) for d in dirs)


flags = ["-O3", "-std=c++17", "-pthread"]
if platform.machine() in ("x86_64", "AMD64"):
    flags.append("-mpopcnt")

ext_modules = []
if _has_gmp():
    ext_modules.append(
        Extension(
            "solver.native._core",
            ["solver/native/_core.cpp"],
            extra_compile_args=flags,
            extra_link_args=["-pthread"],
            libraries=["gmpxx", "gmp"],
            language="c++",
            optional=True,
        )
    )
else:
    print(
        "take6: GMP headers (gmpxx.h, Debian package libgmp-dev) not found: the compiled "
        "search core is not built; the solver will use its Python search",
        file=sys.stderr,
    )

setup(ext_modules=ext_modules)
