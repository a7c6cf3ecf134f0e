//! The `sso-bridge` binary: command-line dispatch only.

use std::process::ExitCode;

// The service allocates many small, short-lived buffers per request (JSON, headers, tokens);
// mimalloc serves them with less CPU than the system allocator. Built with `no_thp`, it turns
// transparent huge pages off for the process as it sets itself up, before the first allocation:
// with them, the kernel backs each part of its arena the service touches with 2 MiB at once,
// and a server whose heap holds a few MiB kept about 32 MiB resident.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    sso_bridge::cli::main()
}
