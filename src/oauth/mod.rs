//! oauth
