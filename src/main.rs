//! The `sso-bridge` binary: command-line dispatch only.

use std::process::ExitCode;

// mimalloc, without transparent huge pages: see `sso_bridge::allocator`.
#[global_allocator]
static ALLOCATOR: sso_bridge::allocator::MiMalloc = sso_bridge::allocator::MiMalloc;

fn main() -> ExitCode {
    sso_bridge::cli::main()
}
