#!/usr/bin/env python3
"""SpikingJelly's own planner tests at the seed's commit (test_plan_* and test_recommend* of
test/activation_based/test_distributed_planner.py, a0209834), written again against the
snnplan module: code written for upstream's plan() runs unchanged.

Upstream's tests call analyze(model, roots=...), which needs torch; `analyze` here is a
stand-in giving what it finds for the two models they use: ToyDistributedSNN (linear layers
under `features`, so tensor-parallel candidates) and a lone IFNode (none).

  PYTHONPATH=build/python python3 python/tests/test_upstream_planner.py
"""
import dataclasses
import types
import unittest

import snnplan
from snnplan import (DistributedFeatureSet, SNNDistributedPlan, SNNDistributedTopology, plan,
                     recommend_snn_distributed_strategy, recommended_pipeline_microbatches)


@dataclasses.dataclass(frozen=True)
class AnalysisStandIn:
    """The three attributes of SNNDistributedAnalysis that plan() reads."""
    notes: tuple = ()
    tensor_parallel_candidate_names: tuple = ()
    tensor_parallel_roots: tuple = None


TOY_SNN = "ToyDistributedSNN"         # linear layers under `features`
LONE_IF_NODE = "Sequential(IFNode)"    # no layer tensor parallelism can shard


def analyze(model, *, model_family=None, roots=None):
    """Stand-in for spikingjelly's analyze(): what it reports for the two test models."""
    del model_family
    candidates = ("features.0", "features.2") if model == TOY_SNN else ()
    return AnalysisStandIn(tensor_parallel_candidate_names=candidates,
                           tensor_parallel_roots=None if roots is None else tuple(roots))


class UpstreamPlanTest(unittest.TestCase):
    def test_plan_returns_structured_plan_from_analysis(self):
        analysis = analyze(TOY_SNN, roots=["features"])
        p = plan(analysis=analysis, objective="speed", topology={"dp": 1}, backend="inductor", batch_size=8,
                 model_family="toy_snn", features=DistributedFeatureSet(allow_pipeline=False))
        self.assertIsInstance(p, SNNDistributedPlan)
        self.assertEqual(p.objective, "speed")
        self.assertIsInstance(p.topology, SNNDistributedTopology)
        self.assertEqual(p.topology.world_size, 1)
        self.assertEqual(p.tensor_parallel_roots, ("features",))
        self.assertEqual(p.experimental_features, DistributedFeatureSet(allow_pipeline=False))

    def test_plan_accepts_missing_model_family(self):
        p = plan(analysis=analyze(TOY_SNN, roots=["features"]), objective="speed", topology={"dp": 1},
                 backend="inductor", batch_size=8)
        self.assertIsInstance(p, SNNDistributedPlan)
        self.assertEqual(p.model_family, "generic")

    def test_plan_respects_allow_zero_optimizer_flag(self):
        p = plan(analysis=analyze(TOY_SNN, roots=["features"]), objective="speed", topology={"dp": 2},
                 backend="inductor", batch_size=8, features=DistributedFeatureSet(allow_zero_optimizer=False))
        self.assertEqual(p.mode, "dp")
        self.assertEqual(p.optimizer_strategy, "none")

    def test_plan_allows_explicit_mode_override_for_advanced_users(self):
        p = plan(analysis=analyze(TOY_SNN, roots=["features"]), objective="speed", topology={"tp": 2},
                 backend="inductor", batch_size=8, mode="tp")
        self.assertEqual(p.mode, "tp")
        self.assertEqual(p.optimizer_strategy, "none")
        self.assertEqual(p.topology.mesh_shape, (2,))

    def test_plan_rejects_tensor_parallel_without_candidates(self):
        with self.assertRaisesRegex(ValueError, "requires at least one tensor-parallel candidate"):
            plan(analysis=analyze(LONE_IF_NODE), objective="memory", topology={"tp": 2}, backend="inductor",
                 batch_size=8, mode="tp")

    def test_plan_rejects_pipeline_when_feature_flag_disables_it(self):
        with self.assertRaisesRegex(NotImplementedError, "Pipeline parallelism"):
            plan(analysis=analyze(TOY_SNN, roots=["features"]), objective="capacity", topology={"pp": 2},
                 backend="inductor", batch_size=8, mode="pp", features=DistributedFeatureSet(allow_pipeline=False))


class UpstreamRecommendTest(unittest.TestCase):
    AVAILABLE = dict(zero_redundancy_optimizer_available=True, pipelining_available=True, fsdp2_available=True,
                     tensor_parallel_available=True)

    def test_recommend_snn_distributed_strategy_speed_prefers_dp_zero(self):
        r = recommend_snn_distributed_strategy(model="spikformer_ti", world_size=2, prefer="speed", batch_size=4,
                                               **self.AVAILABLE)
        self.assertEqual((r.mode, r.optimizer_sharding, r.memopt_level), ("dp", "zero", 0))

    def test_recommend_snn_distributed_strategy_memory_prefers_fsdp2_tp(self):
        r = recommend_snn_distributed_strategy(model="spikformer_ti", world_size=4, prefer="memory", batch_size=4,
                                               **self.AVAILABLE)
        self.assertEqual((r.mode, r.memopt_level, r.mesh_shape), ("fsdp2_tp", 1, (2, 2)))

    def test_recommend_snn_distributed_strategy_capacity_prefers_pp(self):
        r = recommend_snn_distributed_strategy(model="cifar10dvs_vgg", world_size=4, prefer="capacity", batch_size=8,
                                               **self.AVAILABLE)
        self.assertEqual((r.mode, r.memopt_level, r.pp_microbatches, r.pp_schedule, r.pp_virtual_stages),
                         ("pp", 1, 8, "interleaved", 2))
        self.assertIsNone(r.pp_layout)
        self.assertIs(r.pp_delay_wgrad, False)

    def test_recommend_snn_distributed_strategy_capacity_degrades_virtual_stages_for_small_batch(self):
        r = recommend_snn_distributed_strategy(model="cifar10dvs_vgg", world_size=4, prefer="capacity", batch_size=4,
                                               **self.AVAILABLE)
        self.assertEqual((r.mode, r.pp_microbatches, r.pp_schedule, r.pp_virtual_stages), ("pp", 4, "1f1b", 1))

    def test_recommend_snn_distributed_strategy_capacity_falls_back_when_batch_too_small_for_pp(self):
        r = recommend_snn_distributed_strategy(model="cifar10dvs_vgg", world_size=4, prefer="capacity", batch_size=2,
                                               **self.AVAILABLE)
        self.assertEqual((r.mode, r.memopt_level, r.mesh_shape), ("fsdp2_tp", 1, (2, 2)))
        self.assertTrue(any("global batch is smaller" in line for line in r.rationale))
        self.assertFalse(any("Pipeline APIs are unavailable" in line for line in r.rationale))
        self.assertFalse(any("prefer='memory'" in line for line in r.rationale))

    def test_recommended_pipeline_microbatches_rejects_too_small_batch(self):
        with self.assertRaisesRegex(ValueError, r"batch_size .* must be >= num_stages"):
            recommended_pipeline_microbatches(2, 4)

    def test_recommended_pipeline_microbatches_rejects_uneven_fallback(self):
        with self.assertRaisesRegex(ValueError, "must be divisible"):
            recommended_pipeline_microbatches(37, 8)


class UpstreamClassesTest(unittest.TestCase):
    """The classes as upstream defines them: fields, validation, from_mapping, properties."""

    def test_the_topology_has_upstreams_fields_and_properties(self):
        t = SNNDistributedTopology(world_size=8, dims={"tp": 2, "dp": 4})
        self.assertEqual([f.name for f in dataclasses.fields(t)], ["world_size", "dims"])
        self.assertIsInstance(t.dims, types.MappingProxyType)
        self.assertEqual(t.ordered_dim_names, ("dp", "tp"))
        self.assertEqual(t.mesh_shape, (4, 2))
        self.assertEqual(SNNDistributedTopology.from_mapping({"dp": 4.0, "tp": 2}), t.__class__(8, {"dp": 4, "tp": 2}))
        with self.assertRaises(dataclasses.FrozenInstanceError):
            t.world_size = 4

    def test_the_topology_raises_upstreams_exceptions_and_texts(self):
        cases = [
            (lambda: SNNDistributedTopology(world_size=16, dims={"dp": 4, "tp": 2}), ValueError,
             "Topology dims {'dp': 4, 'tp': 2} multiply to 8, but world_size=16."),
            (lambda: SNNDistributedTopology(world_size=True, dims={"dp": 1}), TypeError,
             "world_size must be an integer, but got bool."),
            (lambda: SNNDistributedTopology(world_size=4, dims={}), ValueError, "dims must not be empty."),
            (lambda: SNNDistributedTopology(world_size=4, dims={4: 4}), TypeError,
             "Topology dimension names must be strings, but got int."),
            (lambda: SNNDistributedTopology(world_size=4, dims={"dp": 4.0}), TypeError,
             "Topology dimension 'dp' must be an integer, but got float."),
            (lambda: SNNDistributedTopology.from_mapping({"dp": True}), TypeError,
             "Topology dimension 'dp' must be an integer, but got bool."),
            (lambda: SNNDistributedTopology.from_mapping({"dp": 0}), ValueError,
             "world_size must be positive, but got 0."),
            (lambda: SNNDistributedTopology.from_mapping({"dp": 2 ** 62, "tp": 8}, world_size=4), ValueError,
             "Topology dims {'dp': 4611686018427387904, 'tp': 8} multiply to 36893488147419103232, but world_size=4."),
        ]
        for make, error, text in cases:
            with self.subTest(text=text):
                with self.assertRaises(error) as cm:
                    make()
                self.assertEqual(str(cm.exception), text)

    def test_plan_takes_a_topology_object_and_an_undeclared_flag_is_upstreams_type_error(self):
        analysis = analyze(TOY_SNN)
        t = SNNDistributedTopology.from_mapping({"dp": 2, "tp": 2})
        p = plan(analysis=analysis, objective="memory", topology=t, backend="inductor", batch_size=8)
        self.assertEqual((p.mode, p.topology, p.mesh_shape), ("fsdp2_tp", t, (2, 2)))
        with self.assertRaises(TypeError) as cm:
            plan(objective="memory", topology={"dp": 2}, batch_size=8, features={"bogus": True})
        self.assertEqual(str(cm.exception), "DistributedFeatureSet.__init__() got an unexpected keyword argument 'bogus'")
        with self.assertRaises(TypeError):
            plan(analysis, objective="memory", topology={"dp": 2}, backend="inductor", batch_size=8)  # keyword-only


if __name__ == "__main__":
    unittest.main(verbosity=2)
