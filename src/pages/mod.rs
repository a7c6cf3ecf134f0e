//! The pages of the sign-in flow: authorize, sign-in, second factor, consent and sign-out, the
//! person's own account page, the language menu every page carries, and the page structs their
//! templates show (rendered by `web`). The pages of an app's sign-in take the request they
//! belong to already opened ([`flow`]).

pub mod access;
pub mod account;
pub mod authorize;
pub mod consent;
pub mod enrol;
pub mod flow;
pub mod language;
pub mod logout;
pub mod second_factor;
pub mod signin;
pub mod views;
