//! How long recent sign-ins of real entries took (the search and the bind): a sign-in with a
//! name that finds no one lasts as long as one of them, so that timing does not tell which
//! names exist.

use std::collections::VecDeque;
use std::sync::Mutex;
use std::time::Duration;

/// Binds remembered: enough to follow the directory's pace, few enough to follow a change.
const KEPT: usize = 64;
/// The longest wait taken from them: a bind that hung on a slow server is no pattern to copy.
const LONGEST: Duration = Duration::from_secs(2);

/// The durations of the last [`KEPT`] binds as real entries.
#[derive(Debug, Default)]
pub(super) struct BindTimes(Mutex<VecDeque<Duration>>);

impl BindTimes {
    /// Notes how long a bind as a real entry took (a right or a wrong password).
    pub(super) fn note(&self, took: Duration) {
        let mut times = self.0.lock().unwrap_or_else(|e| e.into_inner());
        if times.len() == KEPT {
            times.pop_front();
        }
        times.push_back(took.min(LONGEST));
    }

    /// One of the noted durations, picked at random; `None` before any bind.
    pub(super) fn sample(&self) -> Option<Duration> {
        let times = self.0.lock().unwrap_or_else(|e| e.into_inner());
        if times.is_empty() {
            return None;
        }
        times.get(rand::random::<usize>() % times.len()).copied()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sample_is_one_of_the_last_binds_and_none_before_any() {
        let times = BindTimes::default();
        assert_eq!(times.sample(), None);
        for ms in 0..(KEPT as u64 + 10) {
            times.note(Duration::from_millis(ms));
        }
        for _ in 0..200 {
            let took = times.sample().unwrap();
            assert!(took >= Duration::from_millis(10), "{took:?} was dropped");
        }
        times.note(Duration::from_secs(60));
        assert!(times.sample().unwrap() <= LONGEST);
    }
}
