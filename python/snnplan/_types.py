"""The value types of the snnplan module and its load exception: plain Python classes.

The compiled extension (snnplan._snnplan) builds instances of these classes, so they print,
compare, pickle and work with dataclasses.asdict/replace like any dataclass. The plan's
classes are in snnplan/_plan.py.
"""
import dataclasses as _dataclasses
from typing import Optional as _Optional, Tuple as _Tuple


@_dataclasses.dataclass(frozen=True)
class SNNDistributedRecommendation:
    """A recommended distributed strategy: the reference's record, field for field."""
    prefer: str
    model: str
    world_size: int
    mode: str
    optimizer_sharding: str = "none"
    memopt_level: int = 0
    mesh_shape: _Optional[_Tuple[int, ...]] = None
    tp_mesh_dim: int = 0
    dp_mesh_dim: _Optional[int] = None
    pp_microbatches: _Optional[int] = None
    pp_memopt_stage_budget_ratio: float = 0.5
    pp_schedule: str = "1f1b"
    pp_virtual_stages: int = 1
    pp_layout: _Optional[_Tuple[int, ...]] = None
    pp_delay_wgrad: bool = False
    rationale: _Tuple[str, ...] = ()


@_dataclasses.dataclass(frozen=True)
class Diagnostic:
    """One problem found in a rule file. line and column count from 1; 0 means unknown."""
    severity: str  # "error", "warning" or "note"
    file: str
    line: int
    column: int
    code: str      # stable kebab-case identifier, e.g. "unknown-key"
    message: str

    def __str__(self):
        where = f"{self.file}:{self.line}:{self.column}" if self.line else self.file
        return f"{where}: {self.severity}: {self.message}"


@_dataclasses.dataclass(frozen=True)
class InputInfo:
    """An input a rule file declares: its name, type ("int", "string", ...), whether it is
    required, its default (None when it has none or it is null), the values allowed (empty:
    any of the type) and the rule file's description ("" when it has none)."""
    name: str
    type: str
    required: bool
    default: object = None
    one_of: tuple = ()
    description: str = ""


class RuleLoadError(ValueError):
    """A rule file could not be loaded. str() is "file:line:column: message" for the first
    error; .file, .line, .column and .message describe it (line/column 0 when unknown) and
    .diagnostics lists every Diagnostic found (errors and warnings)."""

    def __init__(self, text, diagnostics=()):
        super().__init__(text)
        self.diagnostics = list(diagnostics)
        first = next((d for d in self.diagnostics if d.severity == "error"),
                     self.diagnostics[0] if self.diagnostics else None)
        self.file = first.file if first else ""
        self.line = first.line if first else 0
        self.column = first.column if first else 0
        self.message = first.message if first else text

    def __reduce__(self):
        return (type(self), (self.args[0], self.diagnostics))


# They are the module's own names (snnplan.RuleLoadError, ...): pickle finds them there.
for _cls in (SNNDistributedRecommendation, Diagnostic, InputInfo, RuleLoadError):
    _cls.__module__ = "snnplan"
del _cls
