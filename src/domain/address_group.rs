//! The groups a client address is counted in by the bounds on what anyone may do without an
//! account (password guesses, unfinished sign-ins).
//!
//! An IPv4 address is one client. An IPv6 client commonly holds a whole /64 (every VPS, home
//! line and phone gets one), so counting full addresses would give one host 2^64 fresh
//! counters: IPv6 counts by its /64, and a looser counter spans the /48 a site is given.

use std::fmt;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

/// A group of client addresses counted together.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AddressGroup {
    /// One IPv4 address.
    Ipv4(Ipv4Addr),
    /// The /64 network of an IPv6 address: one host.
    Ipv6Host(Ipv6Addr),
    /// The /48 network of an IPv6 address: one site.
    Ipv6Site(Ipv6Addr),
}

impl AddressGroup {
    /// The group that stands for one client: the IPv4 address, or the IPv6 /64.
    pub fn host(address: IpAddr) -> Self {
        match address.to_canonical() {
            IpAddr::V4(v4) => AddressGroup::Ipv4(v4),
            IpAddr::V6(v6) => AddressGroup::Ipv6Host(network(v6, 64)),
        }
    }

    /// The wider group of an IPv6 address, its /48; none for IPv4.
    pub fn site(address: IpAddr) -> Option<Self> {
        match address.to_canonical() {
            IpAddr::V4(_) => None,
            IpAddr::V6(v6) => Some(AddressGroup::Ipv6Site(network(v6, 48))),
        }
    }

    /// The kind of group, as a metric label: `ipv4`, `ipv6_64` or `ipv6_48`.
    pub fn kind(self) -> &'static str {
        match self {
            AddressGroup::Ipv4(_) => "ipv4",
            AddressGroup::Ipv6Host(_) => "ipv6_64",
            AddressGroup::Ipv6Site(_) => "ipv6_48",
        }
    }
}

/// The first `bits` bits of `address`, the rest zero.
fn network(address: Ipv6Addr, bits: u32) -> Ipv6Addr {
    Ipv6Addr::from(u128::from(address) & !(u128::MAX >> bits))
}

/// `192.0.2.7`, `2001:db8:1:2::/64`, `2001:db8:1::/48`.
impl fmt::Display for AddressGroup {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AddressGroup::Ipv4(v4) => write!(f, "{v4}"),
            AddressGroup::Ipv6Host(net) => write!(f, "{net}/64"),
            AddressGroup::Ipv6Site(net) => write!(f, "{net}/48"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap()
    }

    #[test]
    fn an_ipv6_address_counts_by_its_64_and_its_48_and_ipv4_by_itself() {
        let host = |s| AddressGroup::host(ip(s)).to_string();
        assert_eq!(host("2001:db8:1:2:3:4:5:6"), "2001:db8:1:2::/64");
        assert_eq!(host("2001:db8:1:2:ffff::1"), "2001:db8:1:2::/64");
        assert_eq!(host("192.0.2.7"), "192.0.2.7");
        let site = |s| AddressGroup::site(ip(s)).map(|g| g.to_string());
        assert_eq!(
            site("2001:db8:1:2:3:4:5:6").as_deref(),
            Some("2001:db8:1::/48")
        );
        assert_eq!(
            site("2001:db8:1:ffff::9").as_deref(),
            Some("2001:db8:1::/48")
        );
        assert_eq!(site("192.0.2.7"), None);
    }

    #[test]
    fn an_ipv4_address_in_its_ipv6_form_counts_as_itself() {
        assert_eq!(
            AddressGroup::host(ip("::ffff:192.0.2.7")),
            AddressGroup::Ipv4("192.0.2.7".parse().unwrap())
        );
        assert_eq!(AddressGroup::site(ip("::ffff:192.0.2.7")), None);
    }
}
