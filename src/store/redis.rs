//! Redis store for production: shared by every node.
