"""Build the Cython core. Directives live here once; QUANTUM_DEBUG=1 turns the checks on."""
import os

from Cython.Build import cythonize
from setuptools import Extension, setup

MODULES = ["tables", "position", "movegen", "board", "evaluate", "tt", "searchkit", "search",
           "particles", "aleacore"]
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
extensions = [
    Extension(f"engine.{m}", [f"engine/{m}.pyx"],
              extra_compile_args=["-O0", "-g"] if DEBUG else ["-O3"])
    for m in MODULES if os.path.exists(f"engine/{m}.pyx")
]
setup(ext_modules=cythonize(extensions, compiler_directives=directives,
                            annotate=os.environ.get("QUANTUM_ANNOTATE") == "1"))
