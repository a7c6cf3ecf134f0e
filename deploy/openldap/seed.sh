#!/bin/sh
# Seeds an empty directory: the tree (base.ldif), the service account with the generated
# password, then the people (the demo directory, mounted read-only). Does nothing once the
# database exists, so a restart keeps what the directory holds.
#
# Paths can be moved with the environment (the tests run this script against a local slapd):
# SLAPD_CONF, LDAP_DATA, LDAP_BASE_LDIF, LDAP_SEED, LDAP_BIND_PASSWORD_FILE.
set -eu
conf="${SLAPD_CONF:-/etc/ldap/slapd.conf}"
data="${LDAP_DATA:-/var/lib/ldap}"
base="${LDAP_BASE_LDIF:-/etc/ldap/base.ldif}"
seed="${LDAP_SEED:-/seed/demo-directory.ldif}"
password_file="${LDAP_BIND_PASSWORD_FILE:-/run/secrets/ldap-bind-password}"

if [ -e "$data/data.mdb" ]; then
  echo "seed: the directory in $data is already seeded"
  exit 0
fi
if [ ! -s "$password_file" ]; then
  echo "seed: no service account password in $password_file" >&2
  exit 1
fi
mkdir -p "$data"
tree=$(mktemp)
password=$(mktemp)
trap 'rm -f "$tree" "$password"' EXIT
# sso-bridge reads the first line of the file as the password: hash exactly that.
head -n 1 "$password_file" | tr -d '\n' > "$password"
hash=$(slappasswd -h '{SSHA}' -T "$password")
{
  cat "$base"
  printf '\ndn: cn=sso-bridge,ou=services,dc=example,dc=com\n'
  printf 'objectClass: organizationalRole\nobjectClass: simpleSecurityObject\n'
  printf 'cn: sso-bridge\nuserPassword: %s\n' "$hash"
} > "$tree"
slapadd -f "$conf" -l "$tree"
# slapadd reads entries only: the LDIF's `version: 1` line is for ldapadd.
grep -v '^version:' "$seed" | slapadd -f "$conf"
if [ "$(id -u)" = 0 ] && id openldap >/dev/null 2>&1; then
  chown -R openldap:openldap "$data"
fi
echo "seed: loaded $seed"
