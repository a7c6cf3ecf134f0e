//! userPassword hashes of the LDIF directory.
