//! `[claims]`: which directory attribute holds each identity claim (docs/src/protocol.md, Claims).

use serde::Deserialize;

/// Which directory attribute is behind each claim (`claims.<claim>` settings).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClaimMapping {
    /// Behind `sub`, the stable user id (also the username of the LDIF directory).
    pub sub: String,
    /// Behind `name`, the full name.
    pub name: String,
    /// Behind `first_name`.
    pub first_name: String,
    /// Behind `last_name`.
    pub last_name: String,
    /// Behind `employee_code`.
    pub employee_code: String,
    /// Behind `job_title`.
    pub job_title: String,
    /// Behind `department`.
    pub department: String,
    /// Behind `phone`.
    pub phone: String,
    /// Behind `email`.
    pub email: String,
    /// Behind `role`, kept only when it names one of the seven roles.
    pub role: String,
}

impl ClaimMapping {
    /// `(claim, attribute)` pairs.
    pub fn pairs(&self) -> [(&'static str, &str); 10] {
        [
            ("sub", &self.sub),
            ("name", &self.name),
            ("first_name", &self.first_name),
            ("last_name", &self.last_name),
            ("employee_code", &self.employee_code),
            ("job_title", &self.job_title),
            ("department", &self.department),
            ("phone", &self.phone),
            ("email", &self.email),
            ("role", &self.role),
        ]
    }

    /// Every attribute the mapping reads, for LDAP search attribute lists.
    pub fn attributes(&self) -> Vec<String> {
        self.pairs().iter().map(|(_, a)| a.to_string()).collect()
    }
}
