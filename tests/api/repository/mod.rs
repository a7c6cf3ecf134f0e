//! The repository held to itself: the layer rule, and the book to the code.

pub(crate) mod architecture;
pub(crate) mod book;
