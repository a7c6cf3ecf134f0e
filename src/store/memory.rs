//! In-process store for the embedded default: one process, lost on restart.
