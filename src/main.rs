//! The `sso-bridge` binary: command-line dispatch only.

use std::process::ExitCode;

// The service allocates many small, short-lived buffers per request (JSON, headers, tokens);
// mimalloc serves them with less CPU than the system allocator.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    // mimalloc asks for transparent huge pages on its arena, and the kernel then backs each
    // part the service touches with 2 MiB at once: a server whose heap holds a few MiB kept
    // about 32 MiB resident. Without them it keeps what it uses (a peak of 44 MB instead of 56
    // on the bench), at a CPU cost within the bench's round-to-round noise.
    #[cfg(target_os = "linux")]
    if let Err(e) = nix::sys::prctl::set_thp_disable(true) {
        eprintln!(
            "sso-bridge: could not turn transparent huge pages off ({e}); memory use may be higher"
        );
    }
    sso_bridge::cli::main()
}
