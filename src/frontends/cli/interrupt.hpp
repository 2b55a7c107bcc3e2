#pragma once
// SIGINT and SIGTERM as requests to stop at the next whole line, not as a kill: a batch
// finishes the line it is on, writes only complete lines, says how far it got and exits
// 130 / 143 (ExitCode::interrupted_by(signal)). A second signal kills at once, as usual.

namespace snnplan::cli::interrupt {

/// Installs the handlers (the CLI's main does, before anything else). Without it, pending()
/// stays 0 and signals keep their default action -- as in tests that run the CLI in-process.
void install();

/// The signal that asked to stop (SIGINT or SIGTERM), or 0.
[[nodiscard]] int pending() noexcept;

}  // namespace snnplan::cli::interrupt
