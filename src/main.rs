//! The `sso-bridge` binary: command-line dispatch only.

use std::process::ExitCode;

// The service allocates many small, short-lived buffers per request (JSON, headers, tokens);
// mimalloc serves them with less CPU than the system allocator.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    sso_bridge::cli::main()
}
