def parallelize_module(module, device_mesh, plan):
    raise NotImplementedError("a stand-in")
