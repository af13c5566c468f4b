"""Build of the example extension: mjfast's header folder is the only thing it needs."""

from Cython.Build import cythonize
from setuptools import Extension, setup

import mjfast

setup(
    ext_modules=cythonize(
        [Extension("mjfast_cython_example", ["mjfast_cython_example.pyx"],
                   include_dirs=[mjfast.get_include()], extra_compile_args=["-O2"])],
        compiler_directives={"language_level": "3"},
    )
)
