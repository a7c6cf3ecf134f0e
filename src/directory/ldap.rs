//! LDAP directory: search-then-bind.
