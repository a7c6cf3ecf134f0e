//! What a test needs from the machine beyond what the tests start themselves, and what happens
//! when it is missing: the test says in one line what it skipped and why, and passes, so that
//! plain `cargo test` passes on a machine without root or Samba. `scripts/test` sets
//! [`EVERYTHING`]; then a missing prerequisite fails the test, so that a full run never skips
//! anything silently.

use std::io::Write;
use std::process::Command;

/// Set to `1` by `scripts/test` (and CI): a test whose prerequisite is missing fails.
pub const EVERYTHING: &str = "SSO_BRIDGE_TEST_EVERYTHING";

/// Whether this process runs as root.
pub fn root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|out| String::from_utf8_lossy(&out.stdout).trim() == "0")
}

/// Whether `program` is on the `PATH`.
pub fn installed(program: &str) -> bool {
    Command::new("sh")
        .arg("-c")
        .arg(format!("command -v {program}"))
        .output()
        .is_ok_and(|out| out.status.success())
}

/// The running test cannot run here because of `why`, something `scripts/test` provides: one
/// line on the terminal (past the test harness's capture of output) and the test goes on to
/// return; under [`EVERYTHING`], a failure.
pub fn skip(why: &str) {
    if std::env::var(EVERYTHING).is_ok_and(|v| v == "1") {
        panic!(
            "{} cannot run: {why} ({EVERYTHING}=1 makes that a failure, not a skip)",
            test_name()
        );
    }
    skip_optional(why);
}

/// Like [`skip`], for what `scripts/test` does not install either (docker): a skip even
/// under [`EVERYTHING`].
pub fn skip_optional(why: &str) {
    let _ = writeln!(std::io::stderr(), "skipped {}: {why}", test_name());
}

/// The running test's name, as the test harness names its thread.
fn test_name() -> String {
    std::thread::current().name().unwrap_or("a test").to_owned()
}
