"""The program of `runtime: python` (`pulumi up` in this folder, with the CLI's Python language host)."""

import quickstart

quickstart.program()
