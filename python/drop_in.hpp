#pragma once
// The drop-in functions of the Python package: recommend_snn_distributed_strategy() and
// recommended_pipeline_microbatches() as the reference defines them, in plain CPython calls.
//
// The public functions read a plain call's arguments themselves; any other call (a missing,
// unknown or repeated argument) goes to the Python functions of python/snnplan/_drop_in.py,
// which have the reference's signatures, so the errors are Python's own, and which pass the
// bound arguments on, positionally, to the *_positional functions. Plain arguments (str, int,
// None, bools for the flags) go straight to the engine. Any other value is handled as the reference
// handles it: the operations the reference applies to an argument (prefer.lower(),
// model.startswith(), formatting backend and world_size, comparing world_size and batch_size with
// ints, truth values) are applied to it, in the reference's order, so they raise what the reference
// raises; what they give goes to the engine, which makes every decision.

#include <Python.h>

namespace snnplan::python {

/// Called once when the package is imported: the record class (a frozen dataclass), the RuleSet
/// type (for the `rules` argument), SNN_DISTRIBUTED_PREFERENCES, the Python functions with
/// the reference's signatures that unusual calls go to, and where an availability argument of
/// None is read: the package's namespace `constants`, the names of its four *_AVAILABLE
/// constants in the arguments' order, and the function that probes PyTorch and sets them when
/// one is missing. Returns false with a Python error set.
bool init_drop_in(PyObject* recommendation_class, PyObject* rule_set_type, PyObject* preferences,
                  PyObject* recommend_signature, PyObject* microbatches_signature,
                  PyObject* constants, PyObject* constant_names, PyObject* publish_constants);

/// recommend_snn_distributed_strategy(model, world_size, prefer, batch_size, backend='inductor',
/// zero_redundancy_optimizer_available=None, pipelining_available=None, fsdp2_available=None,
/// tensor_parallel_available=None, *, rules=None): METH_FASTCALL | METH_KEYWORDS.
PyObject* recommend(PyObject* self, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames);
/// The same with exactly its 10 arguments, positionally (what the Python function calls).
PyObject* recommend_positional(PyObject* self, PyObject* const* args, Py_ssize_t nargs);
/// recommended_pipeline_microbatches(batch_size, num_stages): METH_FASTCALL | METH_KEYWORDS.
PyObject* microbatches(PyObject* self, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames);
/// The same with exactly its 2 arguments, positionally.
PyObject* microbatches_positional(PyObject* self, PyObject* const* args, Py_ssize_t nargs);

}  // namespace snnplan::python
