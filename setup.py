"""Build the Cython core. Directives live here once.

QUANTUM_DEBUG=1 builds for finding memory faults: Cython's checks on, little optimisation,
and AddressSanitizer with UndefinedBehaviorSanitizer, which stop the process at the first
write past a C array. Python itself is not instrumented, so such a build runs with the
sanitizer runtime preloaded (tests/build/test_debug_build.py shows how)."""
import os

from Cython.Build import cythonize
from setuptools import Extension, setup

MODULES = ["tables", "position", "movegen", "board", "evaluate", "tt", "searchkit", "search",
           "particles", "aleacore", "net"]
DEBUG = os.environ.get("QUANTUM_DEBUG") == "1"

directives = {
    "language_level": 3,
    "boundscheck": DEBUG,
    "wraparound": DEBUG,
    "initializedcheck": DEBUG,
    "nonecheck": DEBUG,
    "cdivision": False,
    "embedsignature": True,
}
SANITIZE = ["-fsanitize=address,undefined", "-fno-omit-frame-pointer"]
extensions = [
    Extension(f"engine.{m}", [f"engine/{m}.pyx"],
              extra_compile_args=["-O1", "-g", *SANITIZE] if DEBUG else ["-O3"],
              extra_link_args=SANITIZE if DEBUG else [])
    for m in MODULES if os.path.exists(f"engine/{m}.pyx")
]
setup(ext_modules=cythonize(extensions, compiler_directives=directives,
                            annotate=os.environ.get("QUANTUM_ANNOTATE") == "1"))
