//! Server-rendered pages: sign-in, consent and error pages, and their templates.

pub mod render;
pub mod views;
