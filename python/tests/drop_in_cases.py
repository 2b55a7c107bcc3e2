"""The calls of the drop-in differential test, drawn from a seed, and how an outcome is written
down. Shared by tools/gen_drop_in_golden.py (which runs them against the reference and commits
the digests) and python/tests/test_drop_in.py (which runs them against snnplan): change this
file and the golden data must be generated again (the test says so: the file's hash is part of
the golden data).

Three kinds of calls, as a config-driven launcher makes them:
  typed  plain str, int and bool/None values, positional or by keyword, every branch;
  loose  values a YAML file or a launcher really passes: None or numbers or objects for backend,
         0/1/""/"no"/[] for the flags, None/str/objects for a batch_size the branch may not read,
         True/False for world_size, str subclasses, Unicode that lower() changes;
  wrong  wrong types and argument errors: unknown or repeated keywords, missing or extra
         arguments, None/int/bytes for model and prefer, None/str for world_size and num_stages.
Not drawn (documented deviations of snnplan, tested on their own in test_api.py): floats for
world_size and batch_size (the rules' inputs are ints), ints beyond 64 bits that the answer reads
(OverflowError), and the keyword `rules`, which the reference does not have.
"""
import dataclasses
import random
import re

MODELS = ["spikformer", "spikformer_8_384", "Spikformer", "spikformerv2", "cifar10dvs_vgg", "CIFAR10DVS_VGG",
          "vgg", "resnet18", "sew_resnet", "", "spik", "модель", "cifar10dvs_vgg ", "x\u0130", "a'b", "{world_size}"]
PREFERS = ["speed", "memory", "capacity", "SPEED", "Memory", "CAPACITY", "cApAcItY", "Speed"]
UNSUPPORTED_PREFERS = ["fast", "", "speed ", "İ", "ΣΑΣ", "MEMORY\u0130", "ẞ", "capacity\n", "\ud800", "spe\x00ed"]
BACKENDS = ["inductor", "eager", "aot_eager", "", "cudagraphs", "ïnductor", "{prefer}", "a'b"]
FLAGS = [None, True, False]
SMALL_INTS = list(range(-3, 21)) + [24, 32, 48, 63, 64, 96, 100, 127, 128, 256, 1000, 1024, 4096]
EDGE_INTS = [2 ** 31 - 1, 2 ** 31, 2 ** 32 + 2, 2 ** 62, 2 ** 63 - 1, -(2 ** 63), -(2 ** 62), 10 ** 18, 999999999989]
MICRO_INTS = SMALL_INTS + [97, 2 * 97, 210, 720, 5040, 65536, 65537, 1 << 20, (1 << 20) + 7, 10 ** 9 + 7, 2 ** 40]

PARAMETERS = ["model", "world_size", "prefer", "batch_size", "backend", "zero_redundancy_optimizer_available",
              "pipelining_available", "fsdp2_available", "tensor_parallel_available"]
WRONG_KEYWORDS = ["pipeline_available", "prefers", "world", "zero_available", "fsdp_available", "Model", "batch"]


class Shown:
    """A value whose str() is fixed (no address in it), as f-strings format it."""

    def __init__(self, text):
        self.text = text

    def __format__(self, spec):
        return self.text

    def __repr__(self):
        return f"Shown({self.text!r})"


class Unformattable:
    """A value the reference cannot format into its rationale."""

    def __format__(self, spec):
        raise RuntimeError("cannot format this value")

    def __repr__(self):
        return "Unformattable()"


class Falsy:
    """A flag object that counts as false."""

    def __bool__(self):
        return False

    def __repr__(self):
        return "Falsy()"


class Name(str):
    """A str subclass, as some config libraries hand out."""


LOOSE_BACKENDS = [None, 0, 1, 2.5, True, False, [1, 2], ("a",), {"k": 1}, Shown("shown"), Shown(""), b"eager"]
LOOSE_FLAGS = [0, 1, 2, -1, "", "no", "false", [], [0], (), 0.0, 0.5, Falsy(), Shown("x")]
UNREAD_BATCHES = [None, "64", "", [], [64], Shown("64"), 64.0, 2 ** 64, -(2 ** 70), b"64", Unformattable()]
WRONG_MODELS = [None, 8, 2.5, b"spikformer", ["spikformer"], True]
WRONG_PREFERS = [None, 8, True, b"speed", b"memory", ["speed"], 2.5]
WRONG_WORLD_SIZES = [None, "8", "", [8], (8,), b"8", Shown("8")]


def _prefer(rng):
    return rng.choice(PREFERS) if rng.random() < 0.85 else rng.choice(UNSUPPORTED_PREFERS)


def _int(rng):
    return rng.choice(SMALL_INTS) if rng.random() < 0.85 else rng.choice(EDGE_INTS)


def _typed_arguments(rng):
    values = [rng.choice(MODELS), _int(rng), _prefer(rng), _int(rng), rng.choice(BACKENDS),
              rng.choice(FLAGS), rng.choice(FLAGS), rng.choice(FLAGS), rng.choice(FLAGS)]
    # Both searches for pipeline microbatches take up to ~sqrt(batch_size) steps when the stage
    # count and batch_size / stages are both large: seconds per call, too slow for this test.
    if values[1] >= 2 ** 20 and values[3] >= 2 ** 40:
        values[3] = rng.choice(SMALL_INTS)
    # Fewer trailing arguments exercise the defaults.
    return values[:rng.choice([4, 5, 6, 7, 8, 9, 9, 9])]


def _all_arguments(values):
    """The 9 arguments, the ones left out at their defaults."""
    defaults = [None, None, None, None, "inductor", None, None, None, None]
    return values + defaults[len(values):]


def _as_call(rng, values):
    """Positional for a random prefix of the values, keywords for the rest (in any order)."""
    split = rng.randint(0, len(values))
    args = tuple(values[:split])
    kwargs = {PARAMETERS[k]: values[k] for k in range(split, len(values))}
    items = list(kwargs.items())
    rng.shuffle(items)
    return args, dict(items)


def _loose_values(rng):
    values = _all_arguments(_typed_arguments(rng))
    for _ in range(rng.randint(1, 3)):
        what = rng.randrange(7)
        if what == 0:
            values[4] = rng.choice(LOOSE_BACKENDS)
        elif what == 1:
            values[5 + rng.randrange(4)] = rng.choice(LOOSE_FLAGS)
        elif what == 2:
            values[3] = rng.choice(UNREAD_BATCHES)
        elif what == 3:
            values[1] = rng.choice([True, False])
        elif what == 4:
            values[0] = Name(rng.choice(MODELS))
        elif what == 5:
            values[2] = Name(_prefer(rng))
        else:
            values[3] = rng.choice([True, False])
    # Floats and ints beyond 64 bits only where the reference never reads batch_size.
    batch = values[3]
    if isinstance(batch, float) or (isinstance(batch, int) and abs(batch) >= 2 ** 63):
        if str(values[2]).lower() == "capacity":
            values[2] = rng.choice(["speed", "memory"])
    return values


def _wrong_call(rng):
    values = _all_arguments(_typed_arguments(rng))
    what = rng.randrange(9)
    if what == 0:  # a misspelt or unknown keyword
        args, kwargs = _as_call(rng, values[:rng.randint(4, 9)])
        kwargs[rng.choice(WRONG_KEYWORDS)] = rng.choice([True, False, None, 1])
        return args, kwargs
    if what == 1:  # missing required arguments
        count = rng.randint(0, 3)
        return _as_call(rng, values[:count])
    if what == 2:  # too many positional arguments
        return tuple(values + [None] * rng.randint(1, 2)), {}
    if what == 3:  # a value given twice
        split = rng.randint(1, 9)
        args = tuple(values[:split])
        return args, {PARAMETERS[rng.randrange(split)]: values[0]}
    if what == 4:
        values[0] = rng.choice(WRONG_MODELS)
    elif what == 5:
        values[2] = rng.choice(WRONG_PREFERS)
    elif what == 6:
        values[1] = rng.choice(WRONG_WORLD_SIZES)
    elif what == 7:
        values[3] = rng.choice(WRONG_WORLD_SIZES)  # read on the capacity branches only
        values[2] = rng.choice(["capacity", "CAPACITY", values[2]])
    else:
        values[4] = rng.choice([Unformattable(), Shown("ok")])
        values[1] = rng.choice([Unformattable(), values[1]])
    return _as_call(rng, values[:rng.randint(4, 9)])


def _microbatches_call(rng):
    kind = rng.random()
    if kind < 0.4:
        values = [rng.choice(MICRO_INTS), rng.choice(MICRO_INTS)]
    elif kind < 0.75:  # batch sizes that are multiples of the stage count, or near them
        stages = rng.choice(SMALL_INTS[4:] + [97, 1000])
        values = [stages * rng.randint(1, 8) + rng.choice([0, 0, 0, 1, -1]), stages]
    elif kind < 0.85:
        values = [rng.choice(MICRO_INTS + [True, False]), rng.choice(SMALL_INTS[:8] + [True, False])]
    else:
        wrong = [None, "8", [8], b"8", Shown("8")]
        values = [rng.choice(MICRO_INTS + wrong), rng.choice(MICRO_INTS + wrong)]
        if rng.random() < 0.2:
            values = values[:rng.randint(0, 1)] if rng.random() < 0.5 else values + [4]
    names = ["batch_size", "num_stages"]
    if len(values) == 2 and rng.random() < 0.3:
        return (values[0],), {names[1]: values[1]}
    if rng.random() < 0.05:
        return tuple(values), {"stages": 4}
    return tuple(values), {}


def cases(seed, count):
    """(kind, function name, args, kwargs) for `count` calls drawn from `seed`."""
    rng = random.Random(seed)
    for _ in range(count):
        roll = rng.random()
        if roll < 0.35:
            yield ("typed", "recommend_snn_distributed_strategy") + _as_call(rng, _typed_arguments(rng))
        elif roll < 0.65:
            values = _loose_values(rng)
            yield ("loose", "recommend_snn_distributed_strategy") + _as_call(rng, values[:rng.randint(4, 9)])
        elif roll < 0.85:
            yield ("wrong", "recommend_snn_distributed_strategy") + _wrong_call(rng)
        else:
            yield ("microbatches", "recommended_pipeline_microbatches") + _microbatches_call(rng)


DID_YOU_MEAN = re.compile(r"\. Did you mean '[^']*'\?$")


def outcome(function, args, kwargs, passthrough=()):
    """What a call gave, as text: the record's fields (names and reprs) or the exception's type
    and message. Exceptions of the types in `passthrough` propagate instead."""
    try:
        result = function(*args, **kwargs)
    except passthrough:
        raise
    except Exception as error:  # every exception is an outcome to compare
        # Python 3.13 suggests a keyword after an unknown one: the interpreter's own text, the
        # same for both functions on one interpreter, left out so one golden set fits them all.
        return f"raise {type(error).__name__}: {DID_YOU_MEAN.sub('', str(error))}"
    if dataclasses.is_dataclass(result):
        fields = tuple((f.name, getattr(result, f.name)) for f in dataclasses.fields(result))
        return f"record {type(result).__name__} {fields!r}"
    return f"return {type(result).__name__} {result!r}"
