class PipelineStage:
    pass
