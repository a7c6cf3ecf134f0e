//! startup
