//! `[claims]`: which directory attribute holds each identity claim (SPEC 2.3).

use serde::Deserialize;

/// Which directory attribute is behind each claim (`claims.<claim>` settings).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClaimMapping {
    pub sub: String,
    pub name: String,
    pub first_name: String,
    pub last_name: String,
    pub employee_code: String,
    pub job_title: String,
    pub department: String,
    pub phone: String,
    pub email: String,
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
