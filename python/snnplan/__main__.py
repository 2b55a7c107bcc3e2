"""python -m snnplan ...: the snnplan command line (every subcommand), run in this process by
the extension, which has the CLI linked in: the same version as the module, no program on PATH
needed."""
import sys

from . import _snnplan


def main() -> int:
    return _snnplan._run_cli(sys.argv[1:])


if __name__ == "__main__":
    sys.exit(main())
