class ZeroRedundancyOptimizer:
    pass
