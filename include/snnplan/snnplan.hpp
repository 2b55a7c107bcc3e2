#pragma once
/// \file
/// Umbrella header: everything a launcher embedding snnplan needs.

#include "snnplan/diagnostic.hpp"
#include "snnplan/evaluation.hpp"
#include "snnplan/explain.hpp"
#include "snnplan/json.hpp"
#include "snnplan/live_rule_set.hpp"
#include "snnplan/microbatches.hpp"
#include "snnplan/plan.hpp"
#include "snnplan/recommendation.hpp"
#include "snnplan/rule_set.hpp"
#include "snnplan/rule_tests.hpp"
#include "snnplan/source_location.hpp"
#include "snnplan/value.hpp"
#include "snnplan/version.hpp"
