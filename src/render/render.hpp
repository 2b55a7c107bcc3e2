#pragma once
// Stage 5 of the pipeline: records, plans, traces and diagnostics for people and programs.
// The formats and their table are in render/format.hpp; JSON values in render/json.hpp.

#include "render/format.hpp"
#include "render/json.hpp"
