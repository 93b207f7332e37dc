"""The Python half of `aot-harness bisect` for a Python generator: builds the generator's pipeline as its
build did (target, GeneratorParams) and writes it serialized (hlpipe) with its arguments in order
(JSON), for the bisect plugin's harness_bisect_hlpipe generator (harness/bisect/bisect_plugin.cpp),
which instruments and compiles it in C++.

usage: python bisect_python.py GENERATOR.py NAME TARGET OUT.hlpipe OUT.json [param=value ...]
"""

import importlib.util
import json
import sys

import halide as hl
from halide import _generator_helpers as helpers


def main(argv):
    source, name, target, pipeline_file, args_file = argv[1:6]
    spec = importlib.util.spec_from_file_location("aot_harness_bisect_generator", source)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)  # registers its generators; its `if __name__ == "__main__"` does not run
    generator = helpers._create_python_generator(name, hl.GeneratorContext(hl.Target(target)))
    if generator is None:
        sys.exit(
            "bisect: %s registers no generator named %s (it has: %s)"
            % (source, name, ", ".join(sorted(helpers._get_python_generator_names())) or "none")
        )
    for param in argv[6:]:
        key, _, value = param.partition("=")
        generator._set_generatorparam_value(key, value)
    infos = generator._get_arginfos()
    pipeline = generator._build_pipeline()
    hl.serialize_pipeline(pipeline, pipeline_file)
    kinds = {hl.ArgInfoKind.Buffer: "buffer", hl.ArgInfoKind.Function: "function", hl.ArgInfoKind.Scalar: "scalar"}
    with open(args_file, "w") as out:
        json.dump(
            [
                {
                    "name": a.name,
                    "dir": "output" if a.dir == hl.ArgInfoDirection.Output else "input",
                    "kind": kinds[a.kind],
                    "types": [[int(t.code()), t.bits(), t.lanes()] for t in a.types],
                    "dimensions": a.dimensions,
                }
                for a in infos
            ],
            out,
        )


if __name__ == "__main__":
    main(sys.argv)
