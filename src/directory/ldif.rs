//! LDIF directory for the embedded default.
